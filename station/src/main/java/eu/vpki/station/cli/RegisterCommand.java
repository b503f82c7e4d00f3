package eu.vpki.station.cli;

import eu.vpki.station.FleetFile;
import eu.vpki.station.FleetRegistrar;
import eu.vpki.station.SimulatedStation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Generates a fleet and registers it through the Operator REST API, streaming: each acknowledged batch is appended to
 * the fleet file before the next is sent, progress is printed every {@code --progress-interval}, a failed batch is
 * retried ({@code --attempts}, with a pause doubling from {@code --backoff}) and then recorded and skipped, and a run
 * given a fleet file that already holds stations registers only the rest ({@code --stations} is the fleet's size).
 * Exit status 0 when every station is registered, 1 when a batch failed (the summary names them).
 */
@Command(name = "register", mixinStandardHelpOptions = true, description = {"Generate N stations and register them through the Operator.",
        "Appends each acknowledged batch to the fleet file; resumes a fleet file that holds fewer than N stations; retries",
        "a failed batch, then records it and goes on (exit status 1 if any batch failed)."})
public final class RegisterCommand implements Callable<Integer> {
    @Option(names = "--operator", required = true, description = "Operator base URL (https)")
    URI operator;
    @Option(names = "--tls-ca", description = {"CA certificate (PEM) the Operator's TLS certificate must come from, e.g. a local",
            "cluster's <work-dir>/tls/ca.crt (default: the JDK's public CAs)"})
    Path tlsCa;
    @Option(names = "--operator-token-file", required = true, description = "file holding the operator's bearer token")
    Path tokenFile;
    @Option(names = "--stations", defaultValue = "1000", description = "fleet size: the fleet file holds this many stations at the end"
            + " (default ${DEFAULT-VALUE})")
    long stations;
    @Option(names = "--curve", defaultValue = "nistP256", description = "station key curve: nistP256, brainpoolP256r1, brainpoolP384r1 (default ${DEFAULT-VALUE})")
    String curve;
    @Option(names = "--fleet", defaultValue = "run/fleet.json", description = "fleet file (JSON Lines), appended batch by batch; an"
            + " existing one is resumed (default ${DEFAULT-VALUE})")
    Path fleetFile;
    @Option(names = "--batch", defaultValue = "1000", description = "stations per registration request (default ${DEFAULT-VALUE})")
    int batch;
    @Option(names = "--attempts", defaultValue = "4", description = "attempts per batch before it is recorded as failed (default ${DEFAULT-VALUE})")
    int attempts;
    @Option(names = "--backoff", defaultValue = "PT1S", description = "pause before a batch's second attempt, doubled for each further one,"
            + " at most 30 s (default ${DEFAULT-VALUE})")
    Duration backoff;
    @Option(names = "--progress-interval", defaultValue = "PT10S", description = "how often progress is printed (default ${DEFAULT-VALUE})")
    Duration progressInterval;

    /** Where progress and the summary go. */
    private final PrintStream out;

    public RegisterCommand() {
        this(System.out);
    }

    /** Printing progress and the summary to {@code out}. */
    public RegisterCommand(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        SecureRandom random = new SecureRandom();
        long held = FleetFile.read(fleetFile).size();
        if (held >= stations) {
            out.println(fleetFile + " already holds " + held + " stations (--stations " + stations + "): nothing to register");
            return 0;
        }
        if (held > 0) {
            out.println("resuming: " + fleetFile + " holds " + held + " stations; registering " + (stations - held) + " more");
        }
        // each run's own id prefix: a resumed run never reuses an id a failed batch may have left at the Operator
        String prefix = "VIN-" + Long.toHexString(random.nextLong() & 0xffffffffL) + "-";
        FleetRegistrar registrar = new FleetRegistrar(CommandSupport.http(tlsCa), operator, Files.readString(tokenFile).strip());
        FleetRegistrar.Summary summary = run(registrar, held, prefix, random);
        for (FleetRegistrar.FailedBatch f : summary.failed()) {
            out.println("failed: stations " + (held + f.from()) + ".." + (held + f.from() + f.size() - 1) + " after " + f.attempts()
                    + " attempt(s): " + f.reason());
        }
        long inFile = held + summary.registered();
        out.println("registered " + summary.registered() + " stations (version " + summary.version() + "); " + fleetFile + " holds "
                + inFile + " of " + stations + (summary.failed().isEmpty()
                        ? ""
                        : "; " + summary.failed().size() + " batch(es), "
                                + summary.failedStations() + " stations, failed: run the same command again to register the rest"));
        return summary.failed().isEmpty() ? 0 : 1;
    }

    FleetRegistrar.Summary run(FleetRegistrar registrar, long held, String prefix, SecureRandom random)
            throws IOException, InterruptedException {
        RegistrationProgress progress = new RegistrationProgress(stations - held, System.nanoTime(), progressInterval);
        try (FleetFile.Appender appender = FleetFile.Appender.open(fleetFile)) {
            return registrar.stream(stations - held,
                    i -> SimulatedStation.generate(prefix + (held + i), CommandSupport.curve(curve), random),
                    batch, CommandSupport.AT_PERMISSIONS, Duration.ofDays(365), new FleetRegistrar.Retry(attempts, backoff,
                            backoff.compareTo(Duration.ofSeconds(30)) > 0 ? backoff : Duration.ofSeconds(30)),
                    new FleetRegistrar.Listener() {
                        @Override
                        public void acknowledged(long from, List<SimulatedStation> stationsOfBatch) throws IOException {
                            appender.append(stationsOfBatch);
                            progress.acknowledged(stationsOfBatch.size());
                            report();
                        }

                        @Override
                        public void failed(FleetRegistrar.FailedBatch failed) {
                            progress.failed(failed.size());
                            out.println("batch of stations " + (held + failed.from()) + ".. failed after " + failed.attempts()
                                    + " attempt(s), going on: " + failed.reason());
                            report();
                        }

                        private void report() {
                            long now = System.nanoTime();
                            if (progress.due(now)) {
                                out.println(progress.line(now));
                            }
                        }
                    });
        } finally {
            out.println(progress.line(System.nanoTime()));
        }
    }
}
