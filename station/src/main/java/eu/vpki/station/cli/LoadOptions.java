package eu.vpki.station.cli;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.station.load.LoadModel;
import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.FleetFile;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.report.ReportWriter;
import eu.vpki.station.report.RunReport;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.load.Workload;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Picocli mixin: how load is offered (open or closed loop, bounds, precomputed requests). */
public final class LoadOptions {
    @Option(names = "--rate", description = "open loop: operations started per second (default: closed loop)")
    public Double rate;
    @Option(names = "--concurrency", defaultValue = "16", description = "closed loop: operations in flight; open loop: worker threads (default ${DEFAULT-VALUE})")
    public int concurrency;
    @Option(names = "--max-duration", defaultValue = "PT10M", description = "bound on each phase (ISO-8601, default ${DEFAULT-VALUE})")
    public Duration maxDuration;
    @Option(names = "--precompute", defaultValue = "true", negatable = true,
            description = "build requests before the timed window (default ${DEFAULT-VALUE})")
    public boolean precompute;

    public LoadModel model(long operations) {
        return rate == null ? new LoadModel.Closed(concurrency, operations, maxDuration)
                : new LoadModel.Open(rate, operations, maxDuration, Math.max(concurrency, 64));
    }
}
