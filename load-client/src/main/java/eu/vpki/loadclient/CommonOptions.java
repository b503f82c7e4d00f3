package eu.vpki.loadclient;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.loadclient.measure.LoadModel;
import eu.vpki.loadclient.measure.LoadRunner;
import eu.vpki.loadclient.obu.FleetFile;
import eu.vpki.loadclient.obu.SimulatedStation;
import eu.vpki.loadclient.report.ReportWriter;
import eu.vpki.loadclient.report.RunReport;
import eu.vpki.loadclient.measure.PhaseResult;
import eu.vpki.loadclient.measure.Workload;
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

/** Options and plumbing shared by the commands. */
final class CommonOptions {
    /** The AT permissions the simulated stations ask for (and are registered with): CAM and DENM of the ETSI profile. */
    static final List<PsidSsp> AT_PERMISSIONS = List.of(
            PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
            PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff));

    private CommonOptions() {
    }

    /** Where the PKI is: a local cluster's state file, or a DC and the RCA certificate. */
    static final class Target {
        @Option(names = "--cluster", description = "work directory of a local cluster (reads its cluster.json)")
        Path cluster;
        @Option(names = "--dc", description = "DC base URL (with --rca-cert)")
        URI dc;
        @Option(names = "--rca-cert", description = "the RCA certificate (COER) to trust")
        Path rcaCert;
        @Option(names = "--ea-url", split = ",", description = "EA replica base URLs to spread enrolments over (default: the CTL's itsAccessPoint)")
        List<URI> eaUrls = new ArrayList<>();
        @Option(names = "--aa-url", split = ",", description = "AA process base URLs to spread AT requests over (default: the CTL's AAs)")
        List<URI> aaUrls = new ArrayList<>();
        @Option(names = "--tls-ca", description = "PEM CA certificate to trust (only) for https ETSI endpoints (DC, EA, AA), e.g. a local"
                + " cluster's tls/ca.crt (default with --cluster: that cluster's; else the JDK's public CAs)")
        Path tlsCa;

        void resolve() throws IOException {
            if (cluster != null) {
                JsonNode n = JsonMapper.builder().build().readTree(Files.readString(cluster.resolve("cluster.json")));
                dc = dc != null ? dc : URI.create(n.get("dc").asText());
                rcaCert = rcaCert != null ? rcaCert : Path.of(n.get("rcaCertificate").asText());
                if (eaUrls.isEmpty()) {
                    n.get("eaReplicas").forEach(u -> eaUrls.add(URI.create(u.asText())));
                }
                if (aaUrls.isEmpty()) {
                    n.get("aas").forEach(u -> aaUrls.add(URI.create(u.asText())));
                }
                if (tlsCa == null && n.has("tlsCaCertificate")) {
                    tlsCa = Path.of(n.get("tlsCaCertificate").asText());
                }
            }
            if (dc == null || rcaCert == null) {
                throw new IllegalArgumentException("give --cluster DIR, or --dc URL and --rca-cert FILE");
            }
        }
    }

    /** How load is offered. */
    static final class Load {
        @Option(names = "--rate", description = "open loop: operations started per second (default: closed loop)")
        Double rate;
        @Option(names = "--concurrency", defaultValue = "16", description = "closed loop: operations in flight; open loop: worker threads (default ${DEFAULT-VALUE})")
        int concurrency;
        @Option(names = "--max-duration", defaultValue = "PT10M", description = "bound on each phase (ISO-8601, default ${DEFAULT-VALUE})")
        Duration maxDuration;
        @Option(names = "--precompute", defaultValue = "true", negatable = true,
                description = "build requests before the timed window (default ${DEFAULT-VALUE})")
        boolean precompute;

        LoadModel model(long operations) {
            return rate == null ? new LoadModel.Closed(concurrency, operations, maxDuration)
                    : new LoadModel.Open(rate, operations, maxDuration, Math.max(concurrency, 64));
        }
    }

    static HttpClient http() {
        return http(null);
    }

    /**
     * The client of every command: HTTP/1.1; with {@code tlsCa} (a PEM CA certificate, e.g. a local
     * cluster's {@code tls/ca.crt}) https servers are trusted only with a certificate of that CA.
     */
    static HttpClient http(Path tlsCa) {
        HttpClient.Builder builder = HttpClient.newBuilder();
        if (tlsCa != null) {
            builder.sslContext(eu.vpki.common.etsi.crypto.ApiTlsCa.clientContext(tlsCa));
        }
        return builder.version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .executor(Executors.newCachedThreadPool(r -> {
                    Thread t = new Thread(r, "http");
                    t.setDaemon(true);
                    return t;
                })).build();
    }

    static Workload workload(Target target, Load load, HttpClient http, AtomicReference<LoadRunner.Progress> progress) throws IOException {
        return Workload.connect(target.dc, target.rcaCert, AT_PERMISSIONS, target.eaUrls, target.aaUrls, load.precompute, http,
                progress::set);
    }

    /** Prints a live progress line on stderr while {@code body} runs. */
    static <T> T withProgress(AtomicReference<LoadRunner.Progress> progress, java.util.concurrent.Callable<T> body) throws Exception {
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

    static EtsiCurve curve(String name) {
        return EtsiCurve.parse(name);
    }

    /** Prints the text report and writes all formats; returns the process exit code (0 when everything succeeded). */
    static int report(RunReport report, Path dir, String base) throws IOException {
        System.out.println();
        System.out.print(ReportWriter.text(report));
        List<Path> files = ReportWriter.writeAll(report, dir, base);
        System.out.println("report written to " + files);
        return report.allSucceeded() ? 0 : 1;
    }

    static Map<String, String> settings(Load load, String curve, String more) {
        return Map.of("curve", curve, "precomputed requests", load.precompute ? "yes (built before the timed window)" : "no",
                "load model", load.rate == null ? "closed loop, " + load.concurrency + " in flight" : "open loop at " + load.rate + "/s",
                "deployment", more, "machine", machine());
    }

    /** Cores and load average of the machine the client runs on, for the report's configuration. */
    static String machine() {
        return Runtime.getRuntime().availableProcessors() + " cores, load average "
                + String.format(java.util.Locale.ROOT, "%.1f", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage())
                + " when the report was written";
    }

    /** The enrolled stations of a fleet file; none (and a message to run 'enrol' first) if it has none. */
    static List<SimulatedStation> enrolledStations(Path fleetFile) throws IOException {
        List<SimulatedStation> enrolled = FleetFile.read(fleetFile).stream().filter(SimulatedStation::enrolled).toList();
        if (enrolled.isEmpty()) {
            System.err.println("no enrolled station in " + fleetFile + ": run 'enrol' first");
        }
        return enrolled;
    }
}
