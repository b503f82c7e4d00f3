package eu.vpki.station.cli;

import eu.vpki.station.load.LoadModel;
import picocli.CommandLine.Option;

import java.time.Duration;

/** Picocli mixin: how load is offered (open or closed loop, bounds, precomputed requests). */
public final class LoadOptions {
    @Option(names = "--rate", description = "open loop: operations started per second (default: closed loop)")
    public Double rate;
    @Option(names = "--concurrency", defaultValue = "16", description = "closed loop: operations in flight; open loop: worker threads (default ${DEFAULT-VALUE})")
    public int concurrency;
    @Option(names = "--max-duration", defaultValue = "PT10M", description = "bound on each phase (ISO-8601, default ${DEFAULT-VALUE})")
    public Duration maxDuration;
    @Option(names = "--precompute", defaultValue = "true", negatable = true, description = "build requests before the timed window (default ${DEFAULT-VALUE})")
    public boolean precompute;

    public LoadModel model(long operations) {
        return rate == null
                ? new LoadModel.Closed(concurrency, operations, maxDuration)
                : new LoadModel.Open(rate, operations, maxDuration, Math.max(concurrency, 64));
    }
}
