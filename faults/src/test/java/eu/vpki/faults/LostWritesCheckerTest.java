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

    /**
     * {@link #clean} in ASYNC with the second EC (token 5@ea-1~x) lost on both replicas, which applied
     * ea-1~x up to {@code appliedElsewhere}; ea-1 had {@code step} at 1,700 ms (80 ms after the ack).
     */
    private static TestRun asyncEcLost(long appliedElsewhere, boolean withToken, String step) {
        TestRun run = clean(false);
        run.remove("a", FleetKeys.EC + "AAAA000000000002");
        run.remove("b", FleetKeys.EC + "AAAA000000000002");
        if (withToken) {
            run.token("5@ea-1~x", "AAAA000000000002", "s1", "ea-1");
        }
        run.appliedEverywhere("ea-1~x", appliedElsewhere);
        run.fault(step.equals("killed") ? FaultKind.REPLICA_KILL : FaultKind.REDIS_KILL, List.of("ea-1"), 1_700, 9_000, step, 1_700);
        return run;
    }

    @Test
    void async_lossWhoseCommandNoOtherReplicaAppliedBeforeItsOriginWasKilled_isReportedButAllowed() {
        CheckResult r = checker.check(asyncEcLost(4, true, "killed").build());

        assertThat(r.findings()).hasSize(1);
        assertThat(r.violations()).isZero();
        assertThat(r.findings().get(0).valueMs()).isEqualTo(80);
        assertThat(r.findings().get(0).faultIndex()).isZero();
        assertThat(r.findings().get(0).detail()).contains("ASYNC: allowed");
    }

    @Test
    void async_lossOfACommandAnotherReplicaApplied_isAViolationThoughItsOriginWasKilledRightAfter() {
        CheckResult r = checker.check(asyncEcLost(5, true, "killed").build());

        assertThat(r.violations()).as("the multicast got out: the origin's death does not explain the loss").isEqualTo(1);
    }

    @Test
    void async_lossWhoseCommandIsUnknown_isAViolation() {
        CheckResult r = checker.check(asyncEcLost(4, false, "killed").build());

        assertThat(r.violations()).as("no token: the history cannot show the command died with its origin").isEqualTo(1);
    }

    @Test
    void async_lossWhoseOriginOnlyHadItsRedisKilled_isAViolation() {
        CheckResult r = checker.check(asyncEcLost(4, true, "redis-killed").build());

        assertThat(r.violations()).as("a live JVM's multicast still gets out").isEqualTo(1);
    }

    @Test
    void async_lossWhileTheOriginsOwnRedisKeptTheWrite_isAViolation() {
        TestRun run = new TestRun(false, "ea-0", "ea-1");
        run.registered("s1", 1_000, "1@operator-0");
        run.acked(Op.Type.ENROL, "s1", "ea-1", 1_500, 1_520, null, "ec", "AAAA000000000001");
        run.token("3@ea-1~x", "AAAA000000000001", "s1", "ea-1");
        run.ec("ea-1", "AAAA000000000001", "s1", "ACTIVE", 1_500);
        run.pointer("ea-1", "s1", "AAAA000000000001", 1_500);
        run.applied("ea-1", "ea-1~x", 3);
        run.applied("ea-0", "ea-1~x", 2);
        run.fault(FaultKind.REPLICA_KILL, List.of("ea-1"), 1_600, 9_000, "killed", 1_600);

        CheckResult r = checker.check(run.build());

        assertThat(r.findings()).as("the EC and the pointer, lost on ea-0").hasSize(2)
                .as("the origin kept it, so it must reach the others: not what ASYNC allows").allMatch(Finding::violation);
        assertThat(r.findings().get(0).detail()).contains("ea-0=no record");
    }

    @Test
    void unreadableReplica_isAFailureOfTheCheck() {
        TestRun run = clean(true);
        run.unreadable("b", "redis: connection refused");

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).isEqualTo("replica b");
        assertThat(LostWritesChecker.unreadable(r.findings().get(0))).isTrue();
        assertThat(r.figure("lost")).isZero();
    }

    @Test
    void unansweredRevocationRacingAnAcknowledgedPermissionChange_revokedWithTheOldPermissions_losesTheChange() {
        TestRun run = unansweredRevocationRacingAPermissionChange();
        run.station("a", "s1", "REVOKED", TestRun.PERMS_2, 2_050);
        run.station("b", "s1", "REVOKED", TestRun.PERMS, 2_050);

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).contains("PERMISSIONS");
        assertThat(r.findings().get(0).detail()).contains("permissions overwritten").contains("b=REVOKED").doesNotContain("a=");
    }

    /** An acknowledged revocation and an acknowledged permission change (P2) racing; every replica REVOKED, the register P2 on a. */
    private static TestRun acknowledgedRevocationRacingAnAcknowledgedPermissionChange() {
        TestRun run = new TestRun(true, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.acked(Op.Type.REVOKE, "s1", "operator-1", 2_000, 2_030, "1@operator-1", "status", "REVOKED", "permissions", TestRun.PERMS,
                "race", "1");
        run.acked(Op.Type.PERMISSIONS, "s1", "operator-0", 2_000, 2_040, "2@operator-0", "status", "ACTIVE", "permissions",
                TestRun.PERMS_2, "race", "1");
        for (String r : List.of("a", "b")) {
            run.station(r, "s1", "REVOKED", TestRun.PERMS, 2_030);
        }
        run.permissions("a", "s1", TestRun.PERMS_2, 2_000);
        return run;
    }

    @Test
    void acknowledgedRevocationAndPermissionChange_bothKept_isClean() {
        TestRun run = acknowledgedRevocationRacingAnAcknowledgedPermissionChange();
        run.permissions("b", "s1", TestRun.PERMS_2, 2_000);

        assertThat(checker.check(run.build()).findings()).isEmpty();
    }

    @Test
    void acknowledgedRevocation_permissionChangeLostBesideIt_isStillChecked() {
        CheckResult r = checker.check(acknowledgedRevocationRacingAnAcknowledgedPermissionChange().build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("permissions overwritten").contains("b=REVOKED");
    }

    @Test
    void sync_sameLossWithTheSameCrash_isAViolation() {
        TestRun run = clean(true);
        run.remove("a", FleetKeys.EC + "AAAA000000000002");
        run.fault(FaultKind.REPLICA_KILL, List.of("ea-1"), 1_700, 9_000, "killed", 1_700);

        assertThat(checker.check(run.build()).violations()).isEqualTo(1);
    }

    /** s1 claimed at two Operator replicas at once, with keys k1 (operator-0) and k2 (operator-1); k2 stored everywhere. */
    private static TestRun registrationRace(Op.Outcome first, String firstCode) {
        TestRun run = new TestRun(true, "a", "b");
        run.op(Op.Type.REGISTER, "s1", "operator-0", 1_000, 1_030, first, firstCode, first == Op.Outcome.ACK ? "1@operator-0" : null,
                "status", "ACTIVE", "permissions", TestRun.PERMS, "key", "02aa", "race", "r1");
        run.acked(Op.Type.REGISTER, "s1", "operator-1", 1_000, 1_040, "1@operator-1", "status", "ACTIVE", "permissions", TestRun.PERMS,
                "key", "02bb", "race", "r1");
        for (String r : List.of("a", "b")) {
            run.station(r, "s1", "ACTIVE", TestRun.PERMS, 1_000);
            run.key(r, "s1", "02bb");
            run.member(r, "s1");
        }
        return run;
    }

    @Test
    void registrationRace_oneClaimantRefused_theOtherStored_isClean() {
        assertThat(checker.check(registrationRace(Op.Outcome.REFUSED, "operator:station-exists").build()).findings()).isEmpty();
    }

    @Test
    void registrationRace_bothClaimantsAcknowledged_theOverwrittenOneIsLost() {
        CheckResult r = checker.check(registrationRace(Op.Outcome.ACK, "ok").build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).contains("via operator-0");
        assertThat(r.findings().get(0).detail()).contains("registration overwritten").contains("canonical key 02bb");
    }

    /** Stations t1..t3 registered in one call with no answer (batch b1); all three on a, {@code onB} of them on b. */
    private static TestRun unansweredBatch(int onB) {
        TestRun run = new TestRun(true, "a", "b");
        for (int i = 1; i <= 3; i++) {
            run.op(Op.Type.REGISTER, "t" + i, "operator-0", 1_000, 16_000, Op.Outcome.UNKNOWN, "client:timeout", null,
                    "status", "ACTIVE", "permissions", TestRun.PERMS, "batch", "b1", "batchSize", "3");
            run.station("a", "t" + i, "ACTIVE", TestRun.PERMS, 1_000);
            if (i <= onB) {
                run.station("b", "t" + i, "ACTIVE", TestRun.PERMS, 1_000);
            }
        }
        return run;
    }

    @Test
    void unansweredBatch_wholeOnOneReplicaAndAbsentOnTheOther_isNotALoss() {
        CheckResult r = checker.check(unansweredBatch(0).build());

        assertThat(r.findings()).as("it may not have applied; divergence is the divergence check's").isEmpty();
    }

    @Test
    void batchTorn_twoOfItsThreeStationsOnAReplica_isAViolation() {
        CheckResult r = checker.check(unansweredBatch(2).build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("batch torn").contains("b=2 of 3");
    }

    /** s1's initial enrolments racing at ea-0 (EC 1, invoked first) and ea-1 (EC 2), both acknowledged; EC 2 won. */
    private static TestRun racingInitialEnrolments() {
        TestRun run = new TestRun(false, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.acked(Op.Type.ENROL, "s1", "ea-0", 1_500, 1_540, null, "ec", "AAAA000000000001", "race", "e1");
        run.acked(Op.Type.ENROL, "s1", "ea-1", 1_500, 1_530, null, "ec", "AAAA000000000002", "race", "e1");
        for (String r : List.of("a", "b")) {
            run.ec(r, "AAAA000000000001", "s1", "SUPERSEDED", 1_502);
            run.ec(r, "AAAA000000000002", "s1", "ACTIVE", 1_501);
            run.pointer(r, "s1", "AAAA000000000002", 1_501);
        }
        return run;
    }

    @Test
    void racingInitialEnrolments_eitherMaySupersedeTheOther_andThePointerNameEither() {
        assertThat(checker.check(racingInitialEnrolments().build()).findings()).isEmpty();
    }

    @Test
    void racingInitialEnrolments_pointerNamingNeither_isLost() {
        TestRun run = racingInitialEnrolments();
        run.acked(Op.Type.ENROL, "s1", "ea-2", 1_100, 1_120, null, "ec", "AAAA000000000000");
        run.ec("a", "AAAA000000000000", "s1", "SUPERSEDED", 1_500);
        run.ec("b", "AAAA000000000000", "s1", "SUPERSEDED", 1_500);
        run.pointer("b", "s1", "AAAA000000000000", 1_600);

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).detail()).contains("latest-EC pointer lost").contains("b=EC AAAA000000000000");
    }
}
