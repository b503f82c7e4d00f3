package eu.vpki.faults;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ResourceCheckerTest {
    private static final long MB = 1 << 20;
    private final ResourceChecker checker = new ResourceChecker();

    /** Replicas a and b sampled at 5 s and 60 s: heap 100 MB of 384, logs of 40 entries under load, empty at the read. */
    private static TestRun healthy() {
        TestRun run = new TestRun(true, "a", "b");
        for (String r : new String[]{"a", "b"}) {
            run.resources(r, 5_000, 100 * MB, 384 * MB, 20 * MB, 40);
            run.resources(r, 60_000, 120 * MB, 384 * MB, 22 * MB, 0);
        }
        return run;
    }

    @Test
    void heapWellBelowItsMaximum_andLogsTrimmedAtTheRead_isClean() {
        CheckResult r = checker.check(healthy().build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.figure("peakHeapMb")).isEqualTo(120);
        assertThat(r.figure("peakRedisMb")).isEqualTo(22);
        assertThat(r.figure("peakLogEntries")).isEqualTo(40);
    }

    @Test
    void heapAtItsMaximum_isAViolation() {
        TestRun run = healthy();
        run.resources("b", 30_000, 380 * MB, 384 * MB, 21 * MB, 10);

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).isEqualTo("b heap");
    }

    @Test
    void commandLogLeftUntrimmedAfterTheQuietPeriod_isAViolation() {
        TestRun run = healthy();
        run.resources("a", 61_000, 120 * MB, 384 * MB, 22 * MB, 1_234);

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("1234 entries left");
    }

    @Test
    void commandLogNotYetTrimmedAfterAShortQuietPeriod_isNotJudged() {
        TestRun run = healthy();
        run.quiet(3_000);
        run.resources("a", 61_000, 120 * MB, 384 * MB, 22 * MB, 1_234);

        CheckResult r = checker.check(run.build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.note()).contains("not judged");
    }

    @Test
    void historyWithoutSamples_isNotMeasured() {
        assertThat(checker.check(new TestRun(true, "a").build()).note()).contains("not measured");
    }
}
