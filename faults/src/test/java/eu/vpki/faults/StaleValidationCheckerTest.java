package eu.vpki.faults;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StaleValidationCheckerTest {
    private final StaleValidationChecker checker = new StaleValidationChecker();

    /** s1 revoked (acknowledged at 2,010 ms) and REVOKED on both replicas; then one AT request. */
    private static TestRun revokedThenAt(boolean sync, long atInvoked, Op.Outcome outcome, String code) {
        TestRun run = new TestRun(sync, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.acked(Op.Type.REVOKE, "s1", "operator-0", 2_000, 2_010, "2@operator-0", "status", "REVOKED", "permissions", TestRun.PERMS);
        run.station("a", "s1", "REVOKED", TestRun.PERMS, 2_000);
        run.station("b", "s1", "REVOKED", TestRun.PERMS, 2_000);
        run.acked(Op.Type.AUTHORIZE, "s1", "aa-0", 1_500, 1_600, null);
        run.op(Op.Type.AUTHORIZE, "s1", "aa-0", atInvoked, atInvoked + 50, outcome, code, null);
        return run;
    }

    @Test
    void atRefusedAfterTheRevocation_isNotStale() {
        CheckResult r = checker.check(revokedThenAt(true, 2_500, Op.Outcome.REFUSED, "authorization:deniedpermissions").build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.figure("requestsAfterRevocation")).isEqualTo(1);
    }

    @Test
    void sync_atIssuedAfterTheRevocation_isStaleWithItsStaleness() {
        CheckResult r = checker.check(revokedThenAt(true, 2_500, Op.Outcome.ACK, "ok").build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).valueMs()).as("judged at the answer: 2,550 - 2,010").isEqualTo(540);
        assertThat(r.figure("maxStalenessMs")).isEqualTo(540);
    }

    @Test
    void async_staleWithinFiveSecondsOnAHealthyGroup_isWithinThePromise() {
        CheckResult r = checker.check(revokedThenAt(false, 2_500, Op.Outcome.ACK, "ok").build());

        assertThat(r.findings()).hasSize(1);
        assertThat(r.violations()).isZero();
    }

    @Test
    void async_staleBeyondFiveSecondsOnAHealthyGroup_isAViolation() {
        CheckResult r = checker.check(revokedThenAt(false, 9_000, Op.Outcome.ACK, "ok").build());

        assertThat(r.violations()).isEqualTo(1);
    }

    @Test
    void async_staleDuringAPartition_hasNoBound() {
        TestRun run = revokedThenAt(false, 9_000, Op.Outcome.ACK, "ok");
        run.fault(FaultKind.PARTITION_MINORITY, List.of("ea-2"), 1_900, 12_000, "cut", 1_900, "healed", 11_000);

        CheckResult r = checker.check(run.build());

        assertThat(r.findings()).hasSize(1);
        assertThat(r.violations()).isZero();
        assertThat(r.findings().get(0).faultIndex()).isZero();
    }

    /** s1 revoked at 2,010 ms; an AT request invoked at 1,900 (before) whose answer came at {@code answered}, across a pause of ea-1. */
    private static TestRun inFlightAcrossAPause(boolean sync, long answered) {
        TestRun run = new TestRun(sync, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.acked(Op.Type.REVOKE, "s1", "operator-0", 2_000, 2_010, "2@operator-0", "status", "REVOKED", "permissions", TestRun.PERMS);
        run.station("a", "s1", "REVOKED", TestRun.PERMS, 2_000);
        run.station("b", "s1", "REVOKED", TestRun.PERMS, 2_000);
        run.fault(FaultKind.PAUSE, List.of("ea-1"), 1_950, 40_000, "paused", 1_950, "resumed", 30_000);
        run.acked(Op.Type.AUTHORIZE, "s1", "aa-0", 1_900, answered, null);
        return run;
    }

    @Test
    void sync_validationInFlightAcrossAPause_answeredBeyondTheLease_isAViolation() {
        CheckResult r = checker.check(inFlightAcrossAPause(true, 30_100).build());

        assertThat(r.figure("requestsAfterRevocation")).as("judged by its answer, though invoked before the revocation").isEqualTo(1);
        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("beyond the lease");
    }

    @Test
    void sync_validationInFlightAcrossTheRevocation_answeredWithinTheLease_isReportedNotAViolation() {
        CheckResult r = checker.check(inFlightAcrossAPause(true, 2_300).build());

        assertThat(r.findings()).hasSize(1);
        assertThat(r.violations()).isZero();
    }

    /** ASYNC: s1 revoked at 2,010 ms; ea-2 cut off from 1,900 to 11,000 (recovered at 12,000); a re-enrolment answered by ea-2. */
    private static TestRun async_reenrolmentAtACutOffReplica(long invoked, long answered) {
        TestRun run = new TestRun(false, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.acked(Op.Type.REVOKE, "s1", "operator-0", 2_000, 2_010, "2@operator-0", "status", "REVOKED", "permissions", TestRun.PERMS);
        run.station("a", "s1", "REVOKED", TestRun.PERMS, 2_000);
        run.station("b", "s1", "REVOKED", TestRun.PERMS, 2_000);
        run.fault(FaultKind.PARTITION_MINORITY, List.of("ea-2"), 1_900, 12_000, "cut", 1_900, "healed", 11_000);
        run.acked(Op.Type.REENROL, "s1", "ea-2", invoked, answered, null, "ec", "AAAA000000000009");
        return run;
    }

    @Test
    void async_validationByAReplicaCutOffLongerThanTheLease_isAViolation() {
        CheckResult r = checker.check(async_reenrolmentAtACutOffReplica(5_000, 5_100).build());

        assertThat(r.violations()).as("3,090 ms stale, within 5 s, but ea-2 was cut off 3,200 ms: its lease ran out").isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("cut off since 1900 ms");
        assertThat(r.findings().get(0).faultIndex()).isZero();
    }

    @Test
    void async_validationByAReplicaCutOffWithinTheLease_isWithinThePromise() {
        CheckResult r = checker.check(async_reenrolmentAtACutOffReplica(3_900, 4_000).build());

        assertThat(r.findings()).hasSize(1);
        assertThat(r.violations()).isZero();
    }

    @Test
    void async_validationByAFormerlyCutOffReplicaAfterTheHeal_isNotJudgedAsCutOff() {
        CheckResult r = checker.check(async_reenrolmentAtACutOffReplica(11_100, 11_200).build());

        assertThat(r.findings()).hasSize(1);
        assertThat(r.violations()).as("healed at 11,000: no longer cut off; the fault's aftermath has no ASYNC bound").isZero();
    }
}
