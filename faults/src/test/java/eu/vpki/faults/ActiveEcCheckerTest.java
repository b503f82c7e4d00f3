package eu.vpki.faults;

import eu.vpki.common.fleet.FleetKeys;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ActiveEcCheckerTest {
    private final ActiveEcChecker checker = new ActiveEcChecker();

    /** s1 enrolled twice (EC 1 superseded by EC 2), s2 once, on both replicas, pointers right. */
    private static TestRun oneActiveEach() {
        TestRun run = new TestRun(false, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.registered("s2", 1_000, "2@operator-0");
        run.acked(Op.Type.ENROL, "s1", "ea-0", 1_500, 1_520, null, "ec", "AAAA000000000001");
        run.acked(Op.Type.REENROL, "s1", "ea-1", 1_600, 1_620, null, "ec", "AAAA000000000002", "previousEc", "AAAA000000000001");
        run.acked(Op.Type.ENROL, "s2", "ea-0", 1_700, 1_720, null, "ec", "AAAA000000000003");
        for (String r : List.of("a", "b")) {
            run.ec(r, "AAAA000000000001", "s1", "SUPERSEDED", 1_601);
            run.ec(r, "AAAA000000000002", "s1", "ACTIVE", 1_600);
            run.pointer(r, "s1", "AAAA000000000002", 1_600);
            run.ec(r, "AAAA000000000003", "s2", "ACTIVE", 1_700);
            run.pointer(r, "s2", "AAAA000000000003", 1_700);
        }
        return run;
    }

    @Test
    void oneActiveEcPerStationNamedByItsPointer_isClean() {
        CheckResult r = checker.check(oneActiveEach().build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.figure("stationsWithEcs")).isEqualTo(2);
    }

    @Test
    void twoActiveEcsOfOneStation_onOneReplica_isAViolation() {
        TestRun run = oneActiveEach();
        run.ec("b", "AAAA000000000001", "s1", "ACTIVE", 1_500);

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.figure("multipleActive")).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).isEqualTo("b / s1");
        assertThat(r.findings().get(0).detail()).contains("2 ACTIVE ECs");
    }

    @Test
    void stationWhoseEveryEcIsSuperseded_hasNoActiveEc_isAViolation() {
        TestRun run = oneActiveEach();
        run.remove("a", FleetKeys.EC + "AAAA000000000002");

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("noActive")).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).isEqualTo("a / s1");
    }

    @Test
    void pointerNamingTheSupersededEc_isAViolation() {
        TestRun run = oneActiveEach();
        run.pointer("a", "s1", "AAAA000000000001", 1_700);

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("pointerMismatch")).isEqualTo(1);
        assertThat(r.violations()).isEqualTo(1);
    }

    @Test
    void unreadableReplica_failsTheCheck() {
        TestRun run = oneActiveEach();
        run.unreadable("b", "timeout");

        assertThat(checker.check(run.build()).violations()).isEqualTo(1);
    }
}
