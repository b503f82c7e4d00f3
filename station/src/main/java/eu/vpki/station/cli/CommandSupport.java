package eu.vpki.station.cli;

import eu.vpki.common.http.HttpClients;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.FleetFile;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.report.ReportWriter;
import eu.vpki.station.report.RunReport;
import eu.vpki.station.load.Workload;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** The plumbing the station, testbed, fault and experiment commands share: HTTP client, progress line, report, settings. */
public final class CommandSupport {
    /** The AT permissions the simulated stations ask for (and are registered with): CAM and DENM of the ETSI profile. */
    public static final List<PsidSsp> AT_PERMISSIONS = SimulatedStation.CAM_DENM;

    private CommandSupport() {
    }

    public static HttpClient http() {
        return http(null);
    }

    /**
     * The client of every command: HTTP/1.1; with {@code tlsCa} (a PEM CA certificate, e.g. a local
     * cluster's {@code tls/ca.crt}) https servers are trusted only with a certificate of that CA.
     */
    public static HttpClient http(Path tlsCa) {
        return HttpClients.http11(Duration.ofSeconds(5)).trustingPemCa(tlsCa).daemonThreads("http").build();
    }

    /** Resolves the target (a cluster's state file, or the DC and RCA given) and connects the load generator to it. */
    public static Workload connect(TargetOptions target, LoadOptions load, AtomicReference<LoadRunner.Progress> progress)
            throws IOException {
        target.resolve();
        return workload(target, load, http(target.tlsCa), progress);
    }

    public static Workload workload(TargetOptions target, LoadOptions load, HttpClient http, AtomicReference<LoadRunner.Progress> progress)
            throws IOException {
        return Workload.connect(target.dc, target.rcaCert, AT_PERMISSIONS, target.eaUrls, target.aaUrls, load.precompute, http,
                progress::set);
    }

    /** Prints a live progress line on stderr while {@code body} runs. */
    public static <T> T withProgress(AtomicReference<LoadRunner.Progress> progress, java.util.concurrent.Callable<T> body)
            throws Exception {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "progress");
            t.setDaemon(true);
            return t;
        });
        boolean tty = System.console() != null;
        ticker.scheduleAtFixedRate(() -> {
            LoadRunner.Progress p = progress.get();
            if (p != null) {
                System.err.print(tty ? "\r" + p.line() + "   " : p.line() + "\n");
            }
        }, 1, tty ? 1 : 5, TimeUnit.SECONDS);
        try {
            return body.call();
        } finally {
            ticker.shutdownNow();
            if (tty) {
                System.err.println();
            }
        }
    }

    public static EtsiCurve curve(String name) {
        return EtsiCurve.parse(name);
    }

    /** Prints the text report and writes all formats; returns the process exit code (0 when everything succeeded). */
    public static int report(RunReport report, Path dir, String base) throws IOException {
        System.out.println();
        System.out.print(ReportWriter.text(report));
        List<Path> files = ReportWriter.writeAll(report, dir, base);
        System.out.println("report written to " + files);
        return report.allSucceeded() ? 0 : 1;
    }

    public static Map<String, String> settings(LoadOptions load, String curve, String more) {
        return Map.of("curve", curve, "precomputed requests", load.precompute ? "yes (built before the timed window)" : "no",
                "load model", load.rate == null ? "closed loop, " + load.concurrency + " in flight" : "open loop at " + load.rate + "/s",
                "deployment", more, "machine", machine());
    }

    /** Cores and load average of the machine the client runs on, for the report's configuration. */
    public static String machine() {
        return Runtime.getRuntime().availableProcessors() + " cores, load average "
                + String.format(java.util.Locale.ROOT, "%.1f",
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                + " when the report was written";
    }

    /** The enrolled stations of a fleet file; none (and a message to run 'enrol' first) if it has none. */
    public static List<SimulatedStation> enrolledStations(Path fleetFile) throws IOException {
        List<SimulatedStation> enrolled = FleetFile.read(fleetFile).stream().filter(SimulatedStation::enrolled).toList();
        if (enrolled.isEmpty()) {
            System.err.println("no enrolled station in " + fleetFile + ": run 'enrol' first");
        }
        return enrolled;
    }
}
