package eu.vpki.faults;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AvailabilityCheckerTest {
    private final AvailabilityChecker checker = new AvailabilityChecker();

    @Test
    void sharesPerFaultKind_leaveDecisionsOut() {
        TestRun run = new TestRun(true, "a", "b", "c");
        run.fault(FaultKind.REPLICA_KILL, List.of("ea-0"), 10_000, 20_000, "killed", 10_000);
        run.acked(Op.Type.ENROL, "s1", "ea-1", 12_000, 12_100, null);
        run.op(Op.Type.ENROL, "s2", "ea-0", 12_000, 12_100, Op.Outcome.REFUSED, "client:connect", null);
        run.op(Op.Type.ENROL, "s3", "ea-0", 13_000, 27_000, Op.Outcome.UNKNOWN, "client:timeout", null);
        run.op(Op.Type.ENROL, "s4", "ea-1", 14_000, 14_100, Op.Outcome.REFUSED, "enrolment:baditsstatus", null);
        run.acked(Op.Type.AUTHORIZE, "s1", "aa-0", 30_000, 30_100, null);

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("replica-kill.ops")).isEqualTo(3);
        assertThat(r.figure("replica-kill.acknowledged")).isEqualTo(1);
        assertThat(AvailabilityChecker.percent(r, "replica-kill")).isCloseTo(33.3, org.assertj.core.data.Offset.offset(0.1));
        assertThat(r.figure("none.ops")).isEqualTo(1);
        assertThat(AvailabilityChecker.percent(r, "none")).isEqualTo(100.0);
        assertThat(r.violations()).isZero();
    }
}
