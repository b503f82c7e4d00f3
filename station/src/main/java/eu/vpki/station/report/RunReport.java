package eu.vpki.station.report;

import eu.vpki.station.load.PhaseResult;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one run of the load generator measured: its phases (e.g. enrolment, authorization, or the steps
 * of a sweep) and the settings that matter to read them (curve, precomputation, cluster shape).
 */
public record RunReport(String title, Instant startedAt, Map<String, String> settings, List<PhaseResult> phases) {
    public RunReport {
        settings = Map.copyOf(settings);
        phases = List.copyOf(phases);
    }

    /** Whether every attempted operation of every phase succeeded. */
    public boolean allSucceeded() {
        return phases.stream().allMatch(p -> p.attempted() > 0 && p.failed() == 0);
    }
}
