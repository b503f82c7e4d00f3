package eu.vpki.faults;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReadYourWritesCheckerTest {
    private final ReadYourWritesChecker checker = new ReadYourWritesChecker();

    private static TestRun withRead(String status, String permissions, Op.Outcome outcome, String code) {
        TestRun run = new TestRun(false, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        Op write = run.acked(Op.Type.SUSPEND, "s1", "operator-0", 2_000, 2_010, "2@operator-0", "status", "SUSPENDED", "permissions",
                TestRun.PERMS);
        if (outcome == Op.Outcome.ACK) {
            run.op(Op.Type.READ, "s1", "operator-1", 2_020, 2_030, outcome, code, null, "readOf", Long.toString(write.id()),
                    "status", status, "permissions", permissions);
        } else {
            run.op(Op.Type.READ, "s1", "operator-1", 2_020, 4_030, outcome, code, null, "readOf", Long.toString(write.id()));
        }
        return run;
    }

    @Test
    void readAnsweringTheWrittenState_isFine() {
        CheckResult r = checker.check(withRead("SUSPENDED", TestRun.PERMS, Op.Outcome.ACK, "ok").build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.figure("judged")).isEqualTo(1);
    }

    @Test
    void readAnsweringTheStateBeforeTheWrite_isAViolation() {
        CheckResult r = checker.check(withRead("ACTIVE", TestRun.PERMS, Op.Outcome.ACK, "ok").build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("2@operator-0").contains("read answered ACTIVE");
    }

    @Test
    void notYetAppliedRefusal_isTheProtocolsRetryNotAViolation() {
        CheckResult r = checker.check(withRead(null, null, Op.Outcome.REFUSED, "operator:version-not-yet-applied").build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.figure("notYetApplied")).isEqualTo(1);
    }
}
