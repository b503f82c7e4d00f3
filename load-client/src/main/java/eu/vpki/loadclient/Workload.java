package eu.vpki.loadclient;

import eu.vpki.loadclient.measure.LoadModel;
import eu.vpki.loadclient.measure.LoadRunner;
import eu.vpki.loadclient.measure.PhaseResult;
import eu.vpki.loadclient.obu.ObuProtocol;
import eu.vpki.loadclient.obu.PkiEndpoints;
import eu.vpki.loadclient.obu.SimulatedStation;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The phases of a load run over one {@link ObuProtocol}: enrol stations, fetch pseudonyms, sweep the
 * offered rate. Requests can be built before the timed window ({@code precompute}) so that the
 * client's own crypto does not compete with the servers during the measurement; the report says
 * whether that was done. Enrolments and authorizations are spread round-robin over the given EA
 * replica and AA process URLs (a load balancer's job in a real deployment), or go to the access
 * points of the CTL when none are given.
 */
final class Workload {
    private final ObuProtocol protocol;
    private final List<URI> enrolmentTargets;
    private final List<URI> authorizationTargets;
    private final boolean precompute;
    private final LoadRunner runner = new LoadRunner();
    private final Consumer<LoadRunner.Progress> progress;

    Workload(ObuProtocol protocol, List<URI> eaReplicas, List<URI> aaProcesses, boolean precompute, Consumer<LoadRunner.Progress> progress) {
        this.protocol = protocol;
        PkiEndpoints pki = protocol.endpoints();
        this.enrolmentTargets = eaReplicas.isEmpty() ? List.of(pki.ea().enrolment())
                : eaReplicas.stream().map(u -> u.resolve(pki.ea().enrolment().getPath())).toList();
        this.authorizationTargets = aaProcesses.isEmpty() ? pki.aas().stream().map(PkiEndpoints.Aa::authorization).toList()
                : aaProcesses.stream().map(u -> u.resolve(pki.aas().get(0).authorization().getPath())).toList();
        this.precompute = precompute;
        this.progress = progress;
    }

    boolean precompute() {
        return precompute;
    }

    PhaseResult enrol(List<SimulatedStation> stations, LoadModel model) {
        List<ObuProtocol.Prepared> prepared = precompute
                ? prepareInParallel(stations.size(), i -> retarget(protocol.prepareEnrolment(stations.get(i)), enrolmentTargets, i))
                : null;
        return runner.run("enrolment", PhaseResult.ENROLMENT, model, i -> protocol.enrol(prepared != null ? prepared.get((int) i)
                : retarget(protocol.prepareEnrolment(stations.get((int) i)), enrolmentTargets, (int) i)), progress);
    }

    PhaseResult fetch(String phase, List<SimulatedStation> enrolled, long count, LoadModel model) {
        PkiEndpoints.Aa aa = protocol.endpoints().aas().get(0);
        List<ObuProtocol.Prepared> prepared = precompute
                ? prepareInParallel((int) count, i -> retarget(protocol.prepareAuthorization(enrolled.get(i % enrolled.size()), aa),
                authorizationTargets, i))
                : null;
        return runner.run(phase, PhaseResult.AUTHORIZATION, model, i -> protocol.authorize(prepared != null ? prepared.get((int) i)
                : retarget(protocol.prepareAuthorization(enrolled.get((int) (i % enrolled.size())), aa), authorizationTargets, (int) i)),
                progress);
    }

    /** Offered-rate sweep of AT requests: open loop at each rate for {@code stepDuration}, stopping after saturation. */
    List<PhaseResult> sweep(List<SimulatedStation> enrolled, double startRate, double factor, int maxSteps, Duration stepDuration, int workers) {
        List<PhaseResult> steps = new ArrayList<>();
        double rate = startRate;
        for (int s = 0; s < maxSteps; s++) {
            long count = (long) Math.ceil(rate * stepDuration.toNanos() / 1e9);
            PhaseResult r = fetch(String.format(java.util.Locale.ROOT, "sweep %.0f/s", rate), enrolled, count,
                    new LoadModel.Open(rate, count, stepDuration.plusSeconds(2), workers));
            steps.add(r);
            // saturated: achieved well below offered, or most requests failing
            if (r.achievedRate() < 0.85 * rate || r.successRate() < 0.5) {
                break;
            }
            rate *= factor;
        }
        return steps;
    }

    private static ObuProtocol.Prepared retarget(ObuProtocol.Prepared p, List<URI> targets, int i) {
        return ObuProtocol.retarget(p, targets.get(Math.floorMod(i, targets.size())));
    }

    private static List<ObuProtocol.Prepared> prepareInParallel(int n, java.util.function.IntFunction<ObuProtocol.Prepared> build) {
        return IntStream.range(0, n).parallel().mapToObj(build).toList();
    }
}
