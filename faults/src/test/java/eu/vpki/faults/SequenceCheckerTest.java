package eu.vpki.faults;

import eu.vpki.common.fleet.FleetKeys;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SequenceCheckerTest {
    private final SequenceChecker checker = new SequenceChecker();

    private static TestRun twoRegistrations() {
        TestRun run = new TestRun(true, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.registered("s2", 1_100, "2@operator-0");
        run.appliedEverywhere("operator-0", 2);
        return run;
    }

    @Test
    void distinctTokensAppliedEverywhere_areFine() {
        CheckResult r = checker.check(twoRegistrations().build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.figure("tokens")).isEqualTo(2);
    }

    @Test
    void oneTokenForTwoWrites_isReuse() {
        TestRun run = twoRegistrations();
        run.registered("s3", 5_000, "2@operator-0");

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("reused")).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).isEqualTo("token 2@operator-0");
    }

    @Test
    void writeMissingOnAReplicaThatAppliedItsOriginBeyondIt_isASkip() {
        TestRun run = twoRegistrations();
        run.remove("b", FleetKeys.station("s1"));

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("skipped")).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("b (applied up to 2)");
    }

    @Test
    void replicaBehindTheLastAcknowledgedCommand_isReported() {
        TestRun run = twoRegistrations();
        run.applied("b", "operator-0", 1);

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("behind")).isEqualTo(1);
        assertThat(r.violations()).isEqualTo(1);
    }

    @Test
    void eaTokensFromTheAuditLog_areJudgedToo() {
        TestRun run = twoRegistrations();
        run.acked(Op.Type.ENROL, "s1", "ea-0", 2_000, 2_020, null, "ec", "AAAA000000000001");
        run.token("7@ea-0", "AAAA000000000001", "s1", "ea-0");
        run.token("7@ea-0", "AAAA000000000009", "s2", "ea-0");
        run.appliedEverywhere("ea-0", 7);

        assertThat(checker.check(run.build()).figure("reused")).isEqualTo(1);
    }

    @Test
    void stationsOfOneBatch_sharingItsCommandsToken_areNotReuse() {
        TestRun run = new TestRun(true, "a", "b");
        for (String st : java.util.List.of("t1", "t2")) {
            run.acked(Op.Type.REGISTER, st, "operator-0", 1_000, 1_020, "1@operator-0", "status", "ACTIVE", "permissions", TestRun.PERMS,
                    "batch", "b1", "batchSize", "2");
            for (String r : java.util.List.of("a", "b")) {
                run.station(r, st, "ACTIVE", TestRun.PERMS, 1_000);
                run.member(r, st);
            }
        }
        run.appliedEverywhere("operator-0", 1);

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("reused")).isZero();
        assertThat(r.findings()).isEmpty();
    }
}
