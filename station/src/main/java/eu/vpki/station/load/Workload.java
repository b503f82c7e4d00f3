package eu.vpki.station.load;

import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.station.ObuProtocol;
import eu.vpki.station.PkiEndpoints;
import eu.vpki.station.SimulatedStation;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * The phases of a load run over one {@link ObuProtocol}: enrol stations, fetch pseudonyms, sweep the
 * offered rate. Requests can be built before the timed window ({@code precompute}) so that the
 * client's own crypto does not compete with the servers during the measurement; the report says
 * whether that was done. Enrolments and authorizations are spread round-robin over the given EA
 * replica and AA process URLs (a load balancer's job in a real deployment), or go to the access
 * points of the CTL when none are given.
 */
public final class Workload {
    private final ObuProtocol protocol;
    private final List<URI> enrolmentTargets;
    private final List<URI> authorizationTargets;
    private final boolean precompute;
    private final LoadRunner runner = new LoadRunner();
    private final Consumer<LoadRunner.Progress> progress;

    public Workload(ObuProtocol protocol, List<URI> eaReplicas, List<URI> aaProcesses, boolean precompute,
                    Consumer<LoadRunner.Progress> progress) {
        this.protocol = protocol;
        PkiEndpoints pki = protocol.endpoints();
        this.enrolmentTargets = eaReplicas.isEmpty()
                ? List.of(pki.ea().enrolment())
                : eaReplicas.stream().map(u -> u.resolve(pki.ea().enrolment().getPath())).toList();
        this.authorizationTargets = aaProcesses.isEmpty()
                ? pki.aas().stream().map(PkiEndpoints.Aa::authorization).toList()
                : aaProcesses.stream().map(u -> u.resolve(pki.aas().get(0).authorization().getPath())).toList();
        this.precompute = precompute;
        this.progress = progress;
    }

    /**
     * A workload for the PKI whose DC is {@code dc}: fetches and verifies its CTL with the RCA
     * certificate in {@code rcaCertificate} (COER), stations asking for {@code atPermissions} in their AT requests.
     * {@code https} endpoints (DC, EA, AA) are verified with {@code http}'s TLS context.
     */
    public static Workload connect(URI dc, Path rcaCertificate, List<PsidSsp> atPermissions, List<URI> eaReplicas, List<URI> aaProcesses,
                                   boolean precompute, HttpClient http, Consumer<LoadRunner.Progress> progress)
            throws IOException {
        Clock clock = Clock.systemUTC();
        EtsiCertificate rca = EtsiCertificate.decode(Files.readAllBytes(rcaCertificate));
        PkiEndpoints pki = PkiEndpoints.discover(List.of(dc), rca, clock.instant(), http.sslContext());
        SecureRandom random = new SecureRandom();
        ObuProtocol protocol = new ObuProtocol(http, new DataEncryption(random), random, clock, pki,
                atPermissions, Duration.ofSeconds(30));
        return new Workload(protocol, eaReplicas, aaProcesses, precompute, progress);
    }

    public boolean precompute() {
        return precompute;
    }

    public PhaseResult enrol(List<SimulatedStation> stations, LoadModel model) {
        return enrol("enrolment", stations, model);
    }

    /** Enrols {@code stations} (not yet enrolled, registered) under {@code model}, as phase {@code phase}. */
    public PhaseResult enrol(String phase, List<SimulatedStation> stations, LoadModel model) {
        List<ObuProtocol.Prepared> prepared = precompute
                ? prepareInParallel(stations.size(), i -> retarget(protocol.prepareEnrolment(stations.get(i)), enrolmentTargets, i))
                : null;
        return runner.run(phase, PhaseResult.ENROLMENT, model, i -> protocol.enrol(prepared != null
                ? prepared.get((int) i)
                : retarget(protocol.prepareEnrolment(stations.get((int) i)), enrolmentTargets, (int) i)), progress);
    }

    public PhaseResult fetch(String phase, List<SimulatedStation> enrolled, long count, LoadModel model) {
        PkiEndpoints.Aa aa = protocol.endpoints().aas().get(0);
        List<ObuProtocol.Prepared> prepared = precompute
                ? prepareInParallel((int) count, i -> retarget(protocol.prepareAuthorization(enrolled.get(i % enrolled.size()), aa),
                        authorizationTargets, i))
                : null;
        return runner.run(phase, PhaseResult.AUTHORIZATION, model, i -> protocol.authorize(prepared != null
                ? prepared.get((int) i)
                : retarget(protocol.prepareAuthorization(enrolled.get((int) (i % enrolled.size())), aa), authorizationTargets, (int) i)),
                progress);
    }

    /** Offered-rate sweep of AT requests: open loop at each rate for {@code stepDuration}, stopping after saturation. */
    public List<PhaseResult> sweep(List<SimulatedStation> enrolled, double startRate, double factor, int maxSteps, Duration stepDuration,
                                   int workers) {
        return sweep("sweep", startRate, factor, maxSteps, stepDuration, workers,
                (name, count, model) -> fetch(name, enrolled, count, model));
    }

    /** One step of a sweep: {@code count} operations under the open-loop {@code model}, as phase {@code name}. */
    @FunctionalInterface
    public interface Step {
        PhaseResult run(String name, long count, LoadModel.Open model);
    }

    /**
     * Open loop at {@code startRate}, then {@code factor} times faster each step of {@code stepDuration},
     * stopping after the first saturated step: achieved below 85 % of offered, or most requests failing.
     */
    public static List<PhaseResult> sweep(String label, double startRate, double factor, int maxSteps, Duration stepDuration, int workers,
                                          Step step) {
        List<PhaseResult> steps = new ArrayList<>();
        double rate = startRate;
        for (int s = 0; s < maxSteps; s++) {
            long count = (long) Math.ceil(rate * stepDuration.toNanos() / 1e9);
            PhaseResult r = step.run(String.format(Locale.ROOT, "%s %.0f/s", label, rate), count,
                    new LoadModel.Open(rate, count, stepDuration.plusSeconds(2), workers));
            steps.add(r);
            if (saturated(r)) {
                break;
            }
            rate *= factor;
        }
        return steps;
    }

    /** Whether a sweep step saturated the service: achieved well below offered, or most requests failing. */
    public static boolean saturated(PhaseResult step) {
        return step.offeredRate() != null && step.achievedRate() < 0.85 * step.offeredRate() || step.successRate() < 0.5;
    }

    private static ObuProtocol.Prepared retarget(ObuProtocol.Prepared p, List<URI> targets, int i) {
        return ObuProtocol.retarget(p, targets.get(Math.floorMod(i, targets.size())));
    }

    private static List<ObuProtocol.Prepared> prepareInParallel(int n, IntFunction<ObuProtocol.Prepared> build) {
        return IntStream.range(0, n).parallel().mapToObj(build).toList();
    }
}
