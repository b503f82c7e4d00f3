package eu.vpki.faults;

import eu.vpki.common.fleet.FleetKeys;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LostWritesCheckerTest {
    private final LostWritesChecker checker = new LostWritesChecker();

    /** Two replicas that hold exactly what was acknowledged: a registration, a suspension, an EC superseded by a re-enrolment. */
    private static TestRun clean(boolean sync) {
        TestRun run = new TestRun(sync, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.acked(Op.Type.SUSPEND, "s1", "operator-1", 2_000, 2_010, "1@operator-1", "status", "SUSPENDED", "permissions", TestRun.PERMS);
        run.acked(Op.Type.ENROL, "s1", "ea-0", 1_500, 1_520, null, "ec", "AAAA000000000001");
        run.acked(Op.Type.REENROL, "s1", "ea-1", 1_600, 1_620, null, "ec", "AAAA000000000002", "previousEc", "AAAA000000000001");
        for (String r : List.of("a", "b")) {
            run.station(r, "s1", "SUSPENDED", TestRun.PERMS, 2_000);
            run.ec(r, "AAAA000000000001", "s1", "SUPERSEDED", 1_601);
            run.ec(r, "AAAA000000000002", "s1", "ACTIVE", 1_600);
            run.pointer(r, "s1", "AAAA000000000002", 1_600);
        }
        return run;
    }

    @Test
    void cleanHistory_findsNothing() {
        CheckResult r = checker.check(clean(true).build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.figure("acknowledgedWrites")).isEqualTo(4);
    }

    @Test
    void ecMissingOnOneReplica_isLostThere() {
        TestRun run = clean(true);
        run.remove("b", FleetKeys.EC + "AAAA000000000002");

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("EC lost").contains("b=no record").doesNotContain("a=");
    }

    @Test
    void statusOverwrittenByTheOlderValue_isLost() {
        TestRun run = clean(true);
        run.station("a", "s1", "ACTIVE", TestRun.PERMS, 1_000);

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).contains("SUSPEND");
        assertThat(r.findings().get(0).detail()).contains("overwritten").contains("a=ACTIVE");
    }

    /** {@link #clean} (SYNC), then a permission change of the suspended station acknowledged. */
    private static TestRun cleanThenPermissionChange() {
        TestRun run = clean(true);
        run.acked(Op.Type.PERMISSIONS, "s1", "operator-0", 3_000, 3_010, "2@operator-0", "status", "SUSPENDED", "permissions",
                TestRun.PERMS_2);
        return run;
    }

    /** Status and permissions are separate registers: the permissions read are the register's once it exists. */
    @Test
    void permissionChangeInItsRegister_isTheStationsPermissions() {
        TestRun run = cleanThenPermissionChange();
        for (String r : List.of("a", "b")) {
            run.permissions(r, "s1", TestRun.PERMS_2, 3_000);
        }

        assertThat(checker.check(run.build()).findings()).as("SUSPENDED from the record, the permissions from the register").isEmpty();
    }

    @Test
    void permissionChangeLostFromItsRegister_isOverwritten() {
        TestRun run = cleanThenPermissionChange();
        run.permissions("a", "s1", TestRun.PERMS_2, 3_000);
        run.permissions("b", "s1", TestRun.PERMS, 2_500);

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("overwritten").contains("b=SUSPENDED").doesNotContain("a=");
    }

    @Test
    void statusLostWhileThePermissionsRegisterKeptItsChange_isOverwritten() {
        TestRun run = cleanThenPermissionChange();
        for (String r : List.of("a", "b")) {
            run.permissions(r, "s1", TestRun.PERMS_2, 3_000);
        }
        run.station("b", "s1", "ACTIVE", TestRun.PERMS, 3_100);

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("overwritten").contains("b=ACTIVE");
    }

    @Test
    void revocationUndoneByARacingChange_isLostEvenThoughTheChangeWasAcknowledged() {
        TestRun run = new TestRun(true, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.acked(Op.Type.REVOKE, "s1", "operator-0", 2_000, 2_030, "2@operator-0", "status", "REVOKED", "permissions", TestRun.PERMS,
                "race", "1");
        run.acked(Op.Type.PERMISSIONS, "s1", "operator-1", 2_001, 2_040, "1@operator-1", "status", "ACTIVE", "permissions", TestRun.PERMS_2,
                "race", "1");
        run.station("a", "s1", "ACTIVE", TestRun.PERMS_2, 2_001);
        run.station("b", "s1", "ACTIVE", TestRun.PERMS_2, 2_001);

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("revocation undone");
        assertThat(r.findings().get(0).faultIndex()).as("a race outside any fault is put down to no fault").isEqualTo(-1);
    }

    @Test
    void valueOfAWriteThatMayHaveApplied_isAccepted() {
        TestRun run = clean(true);
        run.op(Op.Type.REACTIVATE, "s1", "operator-0", 3_000, 13_000, Op.Outcome.UNKNOWN, "client:timeout", null,
                "status", "ACTIVE", "permissions", TestRun.PERMS);
        run.station("a", "s1", "ACTIVE", TestRun.PERMS, 3_000);

        assertThat(checker.check(run.build()).findings()).isEmpty();
    }

    /** A revocation with no answer raced a permission change: the Operator revoked the record with the change in it. */
    private static TestRun unansweredRevocationRacingAPermissionChange() {
        TestRun run = new TestRun(true, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.op(Op.Type.REVOKE, "s1", "operator-1", 2_000, 17_000, Op.Outcome.UNKNOWN, "client:timeout", null,
                "status", "REVOKED", "permissions", TestRun.PERMS, "race", "1");
        run.acked(Op.Type.PERMISSIONS, "s1", "operator-0", 2_000, 2_040, "2@operator-0", "status", "ACTIVE", "permissions", TestRun.PERMS_2,
                "race", "1");
        return run;
    }

    @Test
    void unansweredRevocationRacingAPermissionChange_revokedWithTheChangedPermissions_isAccepted() {
        TestRun run = unansweredRevocationRacingAPermissionChange();
        run.station("a", "s1", "REVOKED", TestRun.PERMS_2, 2_050);
        run.station("b", "s1", "REVOKED", TestRun.PERMS_2, 2_050);

        assertThat(checker.check(run.build()).findings()).isEmpty();
    }

    @Test
    void unansweredRevocationRacingAPermissionChange_theChangeUndoneWhileActive_isStillLost() {
        TestRun run = unansweredRevocationRacingAPermissionChange();
        run.station("a", "s1", "ACTIVE", TestRun.PERMS_2, 2_050);
        run.station("b", "s1", "ACTIVE", TestRun.PERMS, 2_050);

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("overwritten").contains("b=ACTIVE").doesNotContain("a=");
    }

    @Test
    void registrationMissingEverywhere_isLostOnEveryReplica() {
        TestRun run = clean(true);
        for (String r : List.of("a", "b")) {
            run.remove(r, FleetKeys.station("s1"));
        }

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("lostEverywhere")).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("registration lost");
    }

    @Test
    void async_lossWhoseOriginCrashedRightAfterTheAck_isReportedButAllowed() {
        TestRun run = clean(false);
        run.remove("a", FleetKeys.EC + "AAAA000000000002");
        run.remove("b", FleetKeys.EC + "AAAA000000000002");
        run.fault(FaultKind.REPLICA_KILL, List.of("ea-1"), 1_700, 9_000, "killed", 1_700, "restarted", 5_000);

        CheckResult r = checker.check(run.build());

        assertThat(r.findings()).hasSize(1);
        assertThat(r.violations()).isZero();
        assertThat(r.findings().get(0).valueMs()).isEqualTo(80);
        assertThat(r.findings().get(0).faultIndex()).isZero();
    }

    @Test
    void sync_sameLossWithTheSameCrash_isAViolation() {
        TestRun run = clean(true);
        run.remove("a", FleetKeys.EC + "AAAA000000000002");
        run.fault(FaultKind.REPLICA_KILL, List.of("ea-1"), 1_700, 9_000, "killed", 1_700);

        assertThat(checker.check(run.build()).violations()).isEqualTo(1);
    }
}
