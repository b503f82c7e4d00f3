package eu.vpki.faults;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MinorityWritesCheckerTest {
    private final MinorityWritesChecker checker = new MinorityWritesChecker();

    private static TestRun partitioned() {
        return partitioned(false);
    }

    private static TestRun partitioned(boolean sync) {
        TestRun run = new TestRun(sync, "ea-0", "ea-1", "ea-2");
        run.fault(FaultKind.PARTITION_MINORITY, List.of("ea-2"), 10_000, 60_000, "cut", 10_000, "healed", 40_000);
        return run;
    }

    @Test
    void writesAcknowledgedOnTheMajoritySideOrRefusedOnTheMinority_areFine() {
        TestRun run = partitioned();
        run.acked(Op.Type.ENROL, "s1", "ea-0", 15_000, 15_020, null, "ec", "AAAA000000000001");
        run.op(Op.Type.ENROL, "s2", "ea-2", 16_000, 16_020, Op.Outcome.REFUSED, "enrolment:deniedrequest", null);
        run.acked(Op.Type.ENROL, "s3", "ea-2", 45_000, 45_020, null, "ec", "AAAA000000000003");

        CheckResult r = checker.check(run.build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.figure("minorityWriteAttempts")).isEqualTo(1);
    }

    @Test
    void writeAcknowledgedByTheCutOffReplica_isAViolationWithItsDelay() {
        TestRun run = partitioned();
        run.acked(Op.Type.ENROL, "s1", "ea-2", 35_000, 35_020, null, "ec", "AAAA000000000001");

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).valueMs()).isEqualTo(25_020);
        assertThat(r.figure("afterFailureDetection")).isEqualTo(1);
    }

    @Test
    void asyncWriteAcknowledgedByTheCutOffReplicaWithinTheLease_isReportedButAllowed_syncNever() {
        TestRun async = partitioned(false);
        async.acked(Op.Type.ENROL, "s1", "ea-2", 10_500, 11_800, null, "ec", "AAAA000000000001");
        TestRun sync = partitioned(true);
        sync.acked(Op.Type.ENROL, "s1", "ea-2", 10_500, 11_800, null, "ec", "AAAA000000000001");

        CheckResult allowed = checker.check(async.build());
        CheckResult violated = checker.check(sync.build());

        assertThat(allowed.findings()).hasSize(1);
        assertThat(allowed.violations()).isZero();
        assertThat(allowed.findings().get(0).valueMs()).isEqualTo(1_800);
        assertThat(violated.violations()).isEqualTo(1);
    }

    @Test
    void withoutPartitions_saysNotMeasured() {
        assertThat(checker.check(new TestRun(true, "a", "b", "c").build()).note()).contains("not measured");
    }
}
