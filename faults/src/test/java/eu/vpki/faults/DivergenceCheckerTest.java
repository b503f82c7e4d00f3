package eu.vpki.faults;

import eu.vpki.common.fleet.FleetKeys;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DivergenceCheckerTest {
    private final DivergenceChecker checker = new DivergenceChecker();

    private static TestRun equalReplicas() {
        TestRun run = new TestRun(true, "a", "b", "c");
        run.registered("s1", 1_000, "1@operator-0");
        run.registered("s2", 1_100, "2@operator-0");
        run.appliedEverywhere("operator-0", 2);
        return run;
    }

    @Test
    void equalReplicas_noDifferingKey() {
        CheckResult r = checker.check(equalReplicas().build());

        assertThat(r.findings()).isEmpty();
        assertThat(r.figure("distinctDigests")).isEqualTo(1);
        assertThat(r.figure("keys")).isEqualTo(4);
    }

    @Test
    void oneChangedAndOneMissingKey_bothCounted() {
        TestRun run = equalReplicas();
        run.station("b", "s1", "SUSPENDED", TestRun.PERMS, 5_000);
        run.remove("c", FleetKeys.station("s2"));

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("differingKeys")).isEqualTo(2);
        assertThat(r.figure("distinctDigests")).isEqualTo(3);
        assertThat(r.findings()).extracting(Finding::subject).containsExactly(FleetKeys.station("s1"), FleetKeys.station("s2"));
        assertThat(r.findings().get(1).detail()).contains("(missing)=[c]");
    }

    @Test
    void aDifferenceInTheFleetFill_leftOutOfTheContents_isFoundByTheDigests() {
        TestRun run = equalReplicas();
        run.registered(FleetFill.ID_PREFIX + "7", 1_200, "3@operator-0");
        run.station("b", FleetFill.ID_PREFIX + "7", "SUSPENDED", TestRun.PERMS, 5_000);
        RunRecord full = run.build();
        List<ReplicaState> withoutFill = full.states().stream()
                .map(s -> new ReplicaState(s.replica(), s.digest(), s.applied(), FleetFill.withoutFill(s.contents()), null)).toList();
        RunRecord scaled = new RunRecord(full.info(), full.ops(), full.faults(), full.eaTokens(), withoutFill, full.serving(),
                full.resources());
        assertThat(withoutFill).allMatch(s -> s.contents().keySet().stream().noneMatch(k -> k.contains(FleetFill.ID_PREFIX)));

        CheckResult r = checker.check(scaled);

        assertThat(r.findings()).singleElement().satisfies(f -> {
            assertThat(f.subject()).isEqualTo("digests");
            assertThat(f.violation()).isTrue();
            assertThat(f.detail()).contains("[b]");
        });
        assertThat(checker.check(full).findings()).extracting(Finding::subject)
                .containsExactly(FleetKeys.station(FleetFill.ID_PREFIX + "7"));
    }

    @Test
    void differentAppliedTables_reportedApartFromTheKeys() {
        TestRun run = equalReplicas();
        run.applied("a", "operator-0", 3);

        CheckResult r = checker.check(run.build());

        assertThat(r.figure("differingKeys")).isZero();
        assertThat(r.figure("appliedTableDiffers")).isEqualTo(1);
        assertThat(r.violations()).isEqualTo(1);
    }

    @Test
    void differingKey_putDownToTheFaultDuringItsLastWrite() {
        TestRun run = new TestRun(true, "a", "b");
        run.fault(FaultKind.PAUSE, List.of("b"), 500, 2_000, "paused", 500, "resumed", 1_500);
        run.registered("s1", 1_000, "1@operator-0");
        run.remove("b", FleetKeys.station("s1"));

        assertThat(checker.check(run.build()).findings()).extracting(Finding::faultIndex).contains(0);
    }

    @Test
    void oneReplicaReadable_failsTheCheck() {
        TestRun run = equalReplicas();
        run.unreadable("b", "connection refused");
        run.unreadable("c", "connection refused");

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).as("two unreadable replicas and nothing compared").isEqualTo(3);
        assertThat(r.findings()).extracting(Finding::subject).containsExactly("replica b", "replica c", "replicas");
        assertThat(r.figure("differingKeys")).isZero();
    }

    @Test
    void oneUnreadableReplicaBesideTwoEqualOnes_isAViolation() {
        TestRun run = equalReplicas();
        run.unreadable("c", "connection refused");

        CheckResult r = checker.check(run.build());

        assertThat(r.violations()).isEqualTo(1);
        assertThat(r.findings().get(0).subject()).isEqualTo("replica c");
    }
}
