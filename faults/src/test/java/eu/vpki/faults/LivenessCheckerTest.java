package eu.vpki.faults;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LivenessCheckerTest {
    private final LivenessChecker checker = new LivenessChecker();

    /** Replicas a, b, c; b killed and restarted in the one fault; healed at 50 s, read at 80 s. */
    private static TestRun afterAKill() {
        TestRun run = new TestRun(true, "a", "b", "c");
        run.fault(FaultKind.REPLICA_KILL, List.of("b"), 10_000, 40_000, "killed", 10_000, "restarted", 20_000, "healthy", 35_000);
        run.healed(50_000);
        return run;
    }

    @Test
    void everyReplicaServingFromTheHealOn_isClean() {
        TestRun run = afterAKill();
        run.servingThroughout(50_000, 80_000);

        CheckResult r = checker.check(run.build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.figure("replicas")).isEqualTo(3);
    }

    @Test
    void replicaThatNeverServesAfterTheHeal_isAViolation() {
        TestRun run = afterAKill();
        for (long t = 50_000; t <= 80_000; t += 1_000) {
            run.sample("a", t, true, "");
            run.sample("b", t, false, "health 503 OUT_OF_SERVICE");
            run.sample("c", t, true, "");
        }

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).isEqualTo("b");
        assertThat(r.findings().get(0).detail()).contains("never served").contains("OUT_OF_SERVICE");
    }

    @Test
    void replicaServingOnlyBeyondTheBound_isLate() {
        TestRun run = afterAKill();
        for (long t = 50_000; t <= 130_000; t += 1_000) {
            run.sample("a", t, true, "");
            run.sample("b", t, t >= 50_000 + LivenessChecker.BOUND_MS + 5_000, "no answer (HttpTimeoutException)");
            run.sample("c", t, true, "");
        }

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.figure("late")).isEqualTo(1);
        assertThat(r.findings().get(0).valueMs()).isEqualTo(LivenessChecker.BOUND_MS + 5_000);
    }

    @Test
    void replicaLeavingServiceAgainAfterServing_isAGap() {
        TestRun run = afterAKill();
        for (long t = 50_000; t <= 80_000; t += 1_000) {
            run.sample("a", t, true, "");
            run.sample("b", t, true, "");
            run.sample("c", t, t < 60_000 || t > 66_000, "health 503 OUT_OF_SERVICE");
        }

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("gaps")).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).isEqualTo("c");
        assertThat(r.findings().get(0).valueMs()).as("from the last UP probe to the next").isEqualTo(8_000);
    }

    @Test
    void replicaOutOfServiceAtTheLastProbe_isAGapToo() {
        TestRun run = afterAKill();
        for (long t = 50_000; t <= 80_000; t += 1_000) {
            run.sample("a", t, true, "");
            run.sample("b", t, true, "");
            run.sample("c", t, t < 79_000, "not running");
        }

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("still at the last probe");
    }

    @Test
    void replicaNeverProbed_failsTheCheck() {
        TestRun run = afterAKill();
        for (long t = 50_000; t <= 80_000; t += 1_000) {
            run.sample("a", t, true, "");
            run.sample("b", t, true, "");
        }

        CheckResult r = checker.check(run.build());

        assertThat(r.findings()).extracting(Finding::subject).containsExactly("c");
    }

    @Test
    void historyWithoutSamples_isNotMeasured() {
        CheckResult r = checker.check(new TestRun(true, "a").build());

        assertThat(r.note()).contains("not measured");
        assertThat(r.findings()).isEmpty();
    }
}
