package eu.vpki.common.replication;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.fleet.EcRecord;
import eu.vpki.common.fleet.FleetCommands;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.fleet.VersionClock;
import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixtureExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue #38 across a partition (ASYNC): a station enrolled once; then, cut off, the minority replica re-enrols it
 * within its lease while the majority, which never received that EC, enrols it again from the EC it knows. Both
 * acknowledged, each superseding the first EC; after the heal each side fetches the other's command from its log and
 * applies it through the same script. Every replica must end with one state and one ACTIVE EC, the pointer's. The
 * timing is that of {@code ReplicaFaultTest.partition_statusAndPermissionChangedOnBothSides_bothSurviveTheHeal}: a
 * status interval of 2 s (lease 8 s) leaves the minority's write seconds of margin on a busy machine.
 */
class PointerPartitionTest {

    @RegisterExtension
    static final RedisFixtureExtension SERVERS = new RedisFixtureExtension(3);
    private static final String STATION = "VIN-SPLIT";

    private TestCluster cluster;

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void enrolmentsOfOneStationOnBothSidesOfAPartition_leaveOneActiveEcEverywhere(Order order) {
        cluster = new TestCluster(SERVERS.fixtures(), order, Propagation.ASYNC, 3, FleetKeys.KEYSPACE);
        ReplicationConfig.Timeouts timeouts = new ReplicationConfig.Timeouts(Duration.ofSeconds(30),
                TestCluster.TIMEOUTS.stateTransfer(), TestCluster.TIMEOUTS.join(), TestCluster.TIMEOUTS.failureDetection());
        for (int i = 0; i < 3; i++) {
            cluster.start(i, timeouts, Duration.ofSeconds(2));
        }
        cluster.awaitServing(0, 1, 2);
        VersionClock minorityVersions = new VersionClock(Clock.systemUTC());
        VersionClock majorityVersions = new VersionClock(Clock.systemUTC());
        StationRecord station = new StationRecord("op-1", STATION, EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM).publicKey(),
                List.of(PsidSsp.of(Psids.CAM)), Duration.ofHours(24), null, StationStatus.ACTIVE, majorityVersions.next());
        cluster.submitWhenServing(0, FleetCommands.register("op-1", List.of(station)));
        EcRecord first = ec(majorityVersions.nextAbove(0));
        cluster.submitWhenServing(0, FleetCommands.enrolled(first, Optional.empty()));
        cluster.awaitSameState(0, 1, 2);

        cluster.partition(Set.of(0));
        EcRecord minorityRead = fleet(0).latestEc(STATION).orElseThrow();
        EcRecord minorityEc = ec(minorityVersions.nextAbove(minorityRead.version()));
        cluster.member(0).replica().submit(FleetCommands.enrolled(minorityEc,
                Optional.of(minorityRead.superseded(minorityVersions.nextAbove(minorityRead.version()))))).join();
        cluster.awaitViewSize(2, 1, 2);
        cluster.awaitServing(1, 2);
        EcRecord majorityRead = fleet(1).latestEc(STATION).orElseThrow();
        assertThat(majorityRead.id()).as("the majority never received the minority's EC").isEqualTo(first.id());
        EcRecord majorityEc = ec(majorityVersions.nextAbove(majorityRead.version()));
        cluster.submitWhenServing(1, FleetCommands.enrolled(majorityEc,
                Optional.of(majorityRead.superseded(majorityVersions.nextAbove(majorityRead.version())))));

        cluster.heal();
        cluster.awaitViewSize(3, 0, 1, 2);
        cluster.awaitServing(0, 1, 2);
        cluster.awaitSameState(0, 1, 2);
        for (int i = 0; i < 3; i++) {
            FleetState fleet = fleet(i);
            HashedId8 latest = fleet.latestEc(STATION).map(EcRecord::id).orElseThrow();
            assertThat(List.of(minorityEc.id(), majorityEc.id())).as("the pointer at r%d", i).contains(latest);
            List<HashedId8> active = List.of(first, minorityEc, majorityEc).stream()
                    .filter(ec -> fleet.ec(ec.id()).orElseThrow().status() == EcRecord.Status.ACTIVE).map(EcRecord::id).toList();
            assertThat(active).as("ACTIVE ECs at r%d", i).containsExactly(latest);
        }
    }

    private static EcRecord ec(long version) {
        return new EcRecord(TestPki.fixed().issueEc(EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM)), STATION,
                EcRecord.Status.ACTIVE, version);
    }

    private FleetState fleet(int member) {
        Replica replica = cluster.member(member).replica();
        return new FleetState(cluster.member(member).pool, () -> replica.status());
    }
}
