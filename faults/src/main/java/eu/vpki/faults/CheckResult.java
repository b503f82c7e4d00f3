package eu.vpki.faults;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one check found in one run.
 *
 * @param check    the check
 * @param findings every finding (each attributed to a fault or to none)
 * @param figures  totals that go into the report (e.g. writes checked, reads made, max staleness)
 * @param note     what limited the check (e.g. "no partitions: not measured"), empty if nothing
 */
public record CheckResult(Check check, List<Finding> findings, Map<String, Long> figures, String note) {
    public CheckResult {
        findings = List.copyOf(findings);
        figures = java.util.Collections.unmodifiableMap(new TreeMap<>(figures));
    }

    public long violations() {
        return findings.stream().filter(Finding::violation).count();
    }

    public long figure(String name) {
        return figures.getOrDefault(name, 0L);
    }
}
