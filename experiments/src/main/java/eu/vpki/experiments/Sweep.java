package eu.vpki.experiments;

import eu.vpki.station.load.PhaseResult;
import eu.vpki.station.load.Workload;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One open-loop sweep of an experiment: its steps (one phase per offered rate, stopping after the
 * first saturated one) and the setting it ran in (e.g. the cores each host had).
 *
 * @param label     e.g. {@code AT, 1 core per host}
 * @param operation {@link PhaseResult#ENROLMENT} or {@link PhaseResult#AUTHORIZATION}
 * @param setting   what distinguishes it from the experiment's other sweeps, e.g. {@code cpusPerHost=1}
 */
public record Sweep(String label, String operation, Map<String, String> setting, List<PhaseResult> steps) {
    public Sweep {
        setting = Map.copyOf(setting);
        steps = List.copyOf(steps);
    }

    /** Whether the last step saturated the service (else the sweep ran out of steps or time first). */
    public boolean saturated() {
        return !steps.isEmpty() && Workload.saturated(steps.get(steps.size() - 1));
    }

    /** The highest achieved rate of any step: the service's capacity when the sweep {@link #saturated()}, a lower bound otherwise. */
    public double peakRate() {
        return steps.stream().mapToDouble(PhaseResult::achievedRate).max().orElse(0);
    }

    /** The step at the lowest offered rate that succeeded at least once: latency before saturation. */
    public Optional<PhaseResult> lowestLoad() {
        return steps.stream().filter(p -> p.succeeded() > 0)
                .min(Comparator.comparingDouble(p -> p.offeredRate() == null ? 0 : p.offeredRate()));
    }

    public long attempted() {
        return steps.stream().mapToLong(PhaseResult::attempted).sum();
    }

    public long succeeded() {
        return steps.stream().mapToLong(PhaseResult::succeeded).sum();
    }
}
