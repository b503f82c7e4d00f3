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
        assertThat(r.findings().get(0).valueMs()).isEqualTo(490);
        assertThat(r.figure("maxStalenessMs")).isEqualTo(490);
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
}
