package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.fleet.FleetCommands;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.fleet.VersionClock;
import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import redis.clients.jedis.Jedis;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults of issue #21 reproduced in one JVM: three replicas, each with its own redis-server, with
 * restarts, partitions and a sequencer crash made with JGroups' DISCARD. Each test names the fault
 * and what must hold afterwards: no acknowledged write lost, one state everywhere.
 *
 * <p>Each test has its own redis-servers and cluster (its own JGroups ports and cluster name), and the
 * tests run side by side ({@code @Execution(CONCURRENT)} on each; common's pom: up to three at once): they
 * spend most of their time waiting for failure detection and merges, not computing, and nothing they wait
 * for is shorter than seconds. The class itself runs alone, as every other class: no other class's test
 * (one that captures the replication library's log, say) runs beside these.
 */
class ReplicaFaultTest {

    /** This test's own three redis-servers: the tests of this class run side by side (common's pom). */
    private final List<RedisFixture> servers = new ArrayList<>();
    private TestCluster cluster;

    @BeforeEach
    void startServers() {
        for (int i = 0; i < 3; i++) {
            servers.add(RedisFixture.start());
        }
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
        servers.forEach(RedisFixture::stop);
    }

    private static List<Operation> put(String key) {
        return List.of(new Operation.Put(key, "1"));
    }

    private void awaitEverywhere(List<String> keys, Integer... members) {
        await().atMost(TestCluster.CONVERGENCE).untilAsserted(() -> {
            for (int member : members) {
                for (String key : keys) {
                    assertThat(cluster.member(member).exists(key)).as("%s at r%d", key, member).isTrue();
                }
            }
        });
    }

    /**
     * Full-group restart with the stalest replica first: c stops, a and b acknowledge more writes,
     * a and b stop, c starts first, then a and b. Every acknowledged write must still be everywhere
     * (today's code: the joiners load the first starter's stale snapshot and lose them).
     */
    @ParameterizedTest

    @Execution(ExecutionMode.CONCURRENT)
    @EnumSource(Order.class)
    void fullRestart_stalestReplicaFirst_losesNoAcknowledgedWrite(Order order) {
        cluster = new TestCluster(servers, order, Propagation.SYNC);
        cluster.startAll();
        List<String> acknowledged = new ArrayList<>();
        cluster.submitWhenServing(0, put("t:idx:before"));
        acknowledged.add("t:idx:before");

        cluster.member(2).stop();
        cluster.awaitViewSize(2, 0, 1);
        cluster.awaitServing(0, 1);
        for (int i = 0; i < 20; i++) {
            String key = "t:idx:while-c-was-down-" + i;
            cluster.submitWhenServing(i % 2, put(key));
            acknowledged.add(key);
        }
        cluster.member(0).stop();
        cluster.member(1).stop();

        cluster.start(2);
        assertThat(cluster.member(2).replica().status().serving()).as("alone: a minority").isFalse();
        cluster.start(0);
        cluster.start(1);
        cluster.awaitServing(0, 1, 2);

        awaitEverywhere(acknowledged, 0, 1, 2);
        cluster.awaitSameState(0, 1, 2);
    }

    /**
     * ASYNC: c is cut off; before failure detection shrinks its view it still acknowledges a write,
     * while a acknowledges one on the majority side. After the heal both writes must be everywhere
     * (today's code: c reloads the majority's state and loses its own).
     */
    @Test

    @Execution(ExecutionMode.CONCURRENT)
    void partition_writesAcknowledgedOnBothSides_surviveTheHeal() {
        cluster = new TestCluster(servers, Order.FIFO, Propagation.ASYNC);
        cluster.startAll();

        cluster.partition(Set.of(2));
        cluster.member(2).replica().submit(put("t:idx:minority-side")).join();
        cluster.member(0).replica().submit(put("t:idx:majority-side")).join();
        cluster.awaitViewSize(2, 0, 1);
        cluster.awaitViewSize(1, 2);
        assertThat(cluster.member(2).replica().status().state()).isEqualTo(ReplicaStatus.State.MINORITY);

        cluster.heal();
        cluster.awaitViewSize(3, 0, 1, 2);
        awaitEverywhere(List.of("t:idx:minority-side", "t:idx:majority-side"), 0, 1, 2);
        cluster.awaitServing(0, 1, 2);
        cluster.awaitSameState(0, 1, 2);
    }

    /**
     * A replica paused longer than failure detection comes back with its old view, which lists every
     * member (emulated: c never suspects anyone, and the others drop its messages until the heal).
     * In the merge its stale view is the largest subgroup; c must still receive what a and b wrote
     * meanwhile (today's code: nobody reloads, c stays behind for good).
     */
    @Test

    @Execution(ExecutionMode.CONCURRENT)
    void pausedReplicaWithStaleView_receivesWhatOthersWroteMeanwhile() {
        cluster = new TestCluster(servers, Order.FIFO, Propagation.ASYNC);
        cluster.start(0);
        cluster.start(1);
        ReplicationConfig.Timeouts neverSuspects = new ReplicationConfig.Timeouts(TestCluster.TIMEOUTS.reply(),
                TestCluster.TIMEOUTS.stateTransfer(), TestCluster.TIMEOUTS.join(), Duration.ofMinutes(10));
        cluster.start(2, neverSuspects);
        cluster.awaitServing(0, 1, 2);

        cluster.partition(Set.of(2));
        cluster.awaitViewSize(2, 0, 1);
        cluster.awaitServing(0, 1);
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            String key = "t:idx:while-c-was-paused-" + i;
            cluster.submitWhenServing(i % 2, put(key));
            written.add(key);
        }
        assertThat(cluster.member(2).replica().viewSize()).as("c's stale view").isEqualTo(3);
        await().atMost(TestCluster.CONVERGENCE).untilAsserted(() -> assertThat(cluster.member(2).replica().status().state())
                .as("c hears nobody: out of service although its view lists everyone").isEqualTo(ReplicaStatus.State.MINORITY));

        cluster.heal();
        awaitEverywhere(written, 0, 1, 2);
        cluster.awaitSameState(0, 1, 2);
    }

    /**
     * TOTAL order: the sequencer (a, the coordinator) broadcasts c's command, b misses it, and a is
     * then cut off for good. c's next command goes through the new sequencer. b must end up with
     * the first command too (today's code: b applies the second, skips the first silently, and the
     * replicas diverge for good).
     */
    @ParameterizedTest

    @Execution(ExecutionMode.CONCURRENT)
    @EnumSource(Propagation.class)
    void sequencerLost_commandItSequencedToSomeOnly_reachesEveryone(Propagation propagation) {
        cluster = new TestCluster(servers, Order.TOTAL, propagation);
        cluster.startAll();
        Replica c = cluster.member(2).replica();

        cluster.drop(1, 0);
        cluster.drop(1, 2); // b hears nobody for now: neither a's broadcast nor c's reports
        CommandId missedByB = new CommandId(c.origin(), 1);
        c.submit(put("t:idx:sequenced-by-a"));
        await().atMost(TestCluster.CONVERGENCE).until(() -> cluster.member(0).replica().hasApplied(missedByB));
        assertThat(cluster.member(1).replica().hasApplied(missedByB)).isFalse();

        cluster.partition(Set.of(0));
        cluster.undrop(1, 2);
        cluster.awaitViewSize(2, 1, 2);
        cluster.awaitServing(2);
        c.submit(put("t:idx:sequenced-by-the-next")).join();

        awaitEverywhere(List.of("t:idx:sequenced-by-a", "t:idx:sequenced-by-the-next"), 1, 2);
        cluster.awaitSameState(1, 2);
    }

    /**
     * An origin acknowledges a write that no other replica received, then restarts with its Redis.
     * Its next write must not reuse that write's sequence number, and the write must reach the
     * others from the origin's Redis (today's code: the restarted origin takes the others' snapshot,
     * which lacks the write, and numbers its next command like the lost one).
     */
    @Test

    @Execution(ExecutionMode.CONCURRENT)
    void restartedOrigin_neverReusesASequenceNumber_andShipsWhatOnlyItHeld() {
        cluster = new TestCluster(servers, Order.FIFO, Propagation.ASYNC);
        cluster.startAll();

        cluster.drop(0, 2);
        cluster.drop(1, 2);
        CommandId onlyAtC = cluster.member(2).replica().submit(put("t:idx:only-c-received")).join().token();
        cluster.member(2).stop();
        cluster.heal();
        cluster.awaitViewSize(2, 0, 1);

        cluster.start(2);
        cluster.awaitServing(0, 1, 2);
        CommandId next = cluster.submitWhenServing(2, put("t:idx:after-restart")).token();

        assertThat(next).isNotEqualTo(onlyAtC);
        awaitEverywhere(List.of("t:idx:only-c-received", "t:idx:after-restart"), 0, 1, 2);
        cluster.awaitSameState(0, 1, 2);
    }

    /**
     * SYNC: c is cut off. Whatever c tries during the partition is not acknowledged (no majority
     * confirms it); the majority side goes on acknowledging. After the heal one state everywhere,
     * with every acknowledged write.
     */
    @ParameterizedTest

    @Execution(ExecutionMode.CONCURRENT)
    @EnumSource(Order.class)
    void partition_syncMinorityAcknowledgesNoWrite(Order order) {
        cluster = new TestCluster(servers, order, Propagation.SYNC);
        cluster.startAll();

        cluster.partition(Set.of(2));
        Replica c = cluster.member(2).replica();
        java.util.concurrent.CompletableFuture<Acknowledgement> minority = c.submit(put("t:idx:minority-side"));
        List<String> acknowledged = new ArrayList<>();
        await().atMost(TestCluster.CONVERGENCE).untilAsserted(() -> {
            String key = "t:idx:majority-side-" + acknowledged.size();
            cluster.member(0).replica().submitAndWait(put(key), Duration.ofSeconds(10));
            acknowledged.add(key);
        });
        await().atMost(TestCluster.CONVERGENCE).until(() -> c.status().state() == ReplicaStatus.State.MINORITY);
        assertThat(c.submit(put("t:idx:refused")).handle((ack, error) -> error).join())
                .isInstanceOfSatisfying(ReplicationException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_MAJORITY));
        assertThat(minority.handle((ack, error) -> error).join()).as("acknowledged on the minority side").isNotNull();

        cluster.heal();
        awaitEverywhere(acknowledged, 0, 1, 2);
        cluster.awaitSameState(0, 1, 2);
        assertThat(cluster.member(0).exists("t:idx:refused")).isFalse();
    }

    /**
     * A station is revoked on one side of a partition while, on the other side, a change made from
     * the record as it was before (a permission change or a reactivation, with a higher version) is
     * acknowledged too. After the heal the station is revoked everywhere: a terminal write wins over
     * any non-terminal one (what {@code FleetCommands.changeStatus} writes for REVOKED).
     */
    @Test

    @Execution(ExecutionMode.CONCURRENT)
    void revocationRacingALaterChange_staysRevokedEverywhere() {
        cluster = new TestCluster(servers, Order.FIFO, Propagation.ASYNC);
        cluster.startAll();
        cluster.member(0).replica().submit(List.of(new Operation.PutIfNewer("t:rec:station", 1,
                Map.of("status", "ACTIVE", "permissions", "cam")))).join();
        cluster.awaitSameState(0, 1, 2);

        cluster.partition(Set.of(2));
        cluster.member(2).replica().submit(List.of(new Operation.PutIfNewer("t:rec:station", 2,
                Map.of("status", "REVOKED", "permissions", "cam"), true))).join();
        cluster.member(0).replica().submit(List.of(new Operation.PutIfNewer("t:rec:station", 3,
                Map.of("status", "ACTIVE", "permissions", "cam,denm")))).join();
        cluster.awaitViewSize(2, 0, 1);

        cluster.heal();
        cluster.awaitViewSize(3, 0, 1, 2);
        cluster.awaitSameState(0, 1, 2);
        for (TestCluster.Member member : cluster.members()) {
            try (Jedis jedis = member.pool.getResource()) {
                assertThat(StoredRecord.liveFields(jedis.hgetAll("t:rec:station")).orElseThrow())
                        .as("at %s", member.id()).containsEntry("status", "REVOKED");
            }
        }
    }

    /**
     * The TOTAL + ASYNC loss of the #21 matrix, in one JVM: the coordinator (the TOTAL sequencer) is cut
     * off and, within its lease, acknowledges a suspension; once the majority installed its own view it
     * acknowledges a permission change read from the record without the suspension, with a higher
     * version. After the heal both changes are on every replica: status and permissions are separate
     * registers (with the station one register, the permission change replaced the suspension). A
     * status interval of 2 s (lease 8 s) leaves the minority's write seconds of margin on a busy machine.
     */
    @ParameterizedTest

    @Execution(ExecutionMode.CONCURRENT)
    @EnumSource(Order.class)
    void partition_statusAndPermissionChangedOnBothSides_bothSurviveTheHeal(Order order) {
        cluster = new TestCluster(servers, order, Propagation.ASYNC, 3, FleetKeys.KEYSPACE);
        ReplicationConfig.Timeouts timeouts = new ReplicationConfig.Timeouts(Duration.ofSeconds(30),
                TestCluster.TIMEOUTS.stateTransfer(), TestCluster.TIMEOUTS.join(), TestCluster.TIMEOUTS.failureDetection());
        for (int i = 0; i < 3; i++) {
            cluster.start(i, timeouts, Duration.ofSeconds(2));
        }
        cluster.awaitServing(0, 1, 2);
        VersionClock versions = new VersionClock(Clock.systemUTC());
        PsidSsp cam = PsidSsp.of(Psids.CAM);
        PsidSsp denm = PsidSsp.of(Psids.DENM);
        StationRecord registered = new StationRecord("op-1", "VIN-1",
                EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM).publicKey(), List.of(cam), Duration.ofHours(24), null,
                StationStatus.ACTIVE, versions.next());
        cluster.submitWhenServing(0, FleetCommands.register("op-1", List.of(registered)));
        cluster.awaitSameState(0, 1, 2);

        cluster.partition(Set.of(0));
        StationRecord minorityRead = fleet(0).station("VIN-1").orElseThrow();
        cluster.member(0).replica().submit(FleetCommands.changeStatus(
                minorityRead.withStatus(StationStatus.SUSPENDED, versions.nextAbove(minorityRead.version())))).join();
        cluster.awaitViewSize(2, 1, 2);
        cluster.awaitServing(1, 2);
        StationRecord majorityRead = fleet(1).station("VIN-1").orElseThrow();
        assertThat(majorityRead.status()).as("the majority never received the suspension").isEqualTo(StationStatus.ACTIVE);
        cluster.submitWhenServing(1, FleetCommands.changePermissions(
                majorityRead.withPermissions(List.of(denm), versions.nextAbove(majorityRead.permissionsVersion()))));

        cluster.heal();
        cluster.awaitViewSize(3, 0, 1, 2);
        cluster.awaitServing(0, 1, 2);
        cluster.awaitSameState(0, 1, 2);
        for (int i = 0; i < 3; i++) {
            StationRecord merged = fleet(i).station("VIN-1").orElseThrow();
            assertThat(merged.status()).as("the minority's suspension at r%d", i).isEqualTo(StationStatus.SUSPENDED);
            assertThat(merged.permissions()).as("the majority's permission change at r%d", i).containsExactly(denm);
        }
    }

    private FleetState fleet(int member) {
        TestCluster.Member m = cluster.member(member);
        Replica replica = m.replica();
        return new FleetState(m.pool, () -> replica.status());
    }

    /**
     * A replica's redis-server is killed (it had AOF on, fsync every second) and started again on the
     * same port and files. The replica reports FAILED, leaves, and once its Redis answers joins again
     * as a new origin, fetches what it missed or lost, and serves; nothing acknowledged is lost.
     */
    @Test

    @Execution(ExecutionMode.CONCURRENT)
    void redisKilledAndRestarted_replicaRejoinsAsANewOriginAndCatchesUp() throws Exception {
        try (AppendOnlyRedis victim = AppendOnlyRedis.start()) {
            cluster = new TestCluster(List.of(servers.get(0), servers.get(1), victim), Order.FIFO, Propagation.SYNC);
            cluster.start(0);
            cluster.start(1);
            Replica c = cluster.start(2);
            cluster.awaitServing(0, 1, 2);
            String firstOrigin = c.origin();
            List<String> acknowledged = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                String key = "t:idx:before-" + i;
                cluster.submitWhenServing(i % 3, put(key));
                acknowledged.add(key);
            }

            String runIdBefore = new RedisStateMachine(cluster.member(2).pool, ReplicaClusterTest.KEYSPACE).serverRunId();
            victim.kill();
            for (int i = 0; i < 10; i++) {
                String key = "t:idx:while-its-redis-was-down-" + i;
                cluster.member(i % 2).replica().submitAndWait(put(key), Duration.ofSeconds(10));
                acknowledged.add(key);
            }
            await().atMost(TestCluster.CONVERGENCE).until(() -> c.status().state() == ReplicaStatus.State.FAILED);
            assertThat(c.status().serving()).isFalse();

            victim.restart();
            // the pool may still hold a connection to the killed server until the replica's recovery clears it
            await().atMost(TestCluster.CONVERGENCE).ignoreExceptions().untilAsserted(
                    () -> assertThat(new RedisStateMachine(cluster.member(2).pool, ReplicaClusterTest.KEYSPACE).serverRunId())
                            .as("what tells a replica that its Redis restarted, even when no apply failed meanwhile")
                            .isNotEqualTo(runIdBefore));
            cluster.awaitServing(2);
            assertThat(c.origin()).isNotEqualTo(firstOrigin).startsWith(c.id() + "~");
            awaitEverywhere(acknowledged, 0, 1, 2);
            cluster.submitWhenServing(2, put("t:idx:after"));
            cluster.awaitSameState(0, 1, 2);
        }
    }

    /**
     * Once every member applied a command and the trim delay passed, the logs drop it. A member that
     * then comes back with an empty Redis cannot fetch those commands from any log: it takes a
     * snapshot from a member that holds everything it holds, and serves.
     */
    @Test

    @Execution(ExecutionMode.CONCURRENT)
    void emptyMember_afterTheLogsWereTrimmed_takesASnapshot() {
        cluster = new TestCluster(servers, Order.FIFO, Propagation.ASYNC);
        Duration fastReports = Duration.ofMillis(100); // trims after 2 s instead of 10 s
        cluster.start(0, TestCluster.TIMEOUTS, fastReports);
        cluster.start(1, TestCluster.TIMEOUTS, fastReports);
        cluster.start(2, TestCluster.TIMEOUTS, fastReports);
        cluster.awaitServing(0, 1, 2);
        List<String> written = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String key = "t:idx:trimmed-" + i;
            cluster.submitWhenServing(i % 2, put(key));
            written.add(key);
        }
        String origin = cluster.member(0).replica().origin();
        await().atMost(TestCluster.CONVERGENCE).until(() -> cluster.members().stream()
                .allMatch(member -> new CommandLog(member.pool, ReplicaClusterTest.KEYSPACE).first(origin) == 0));

        cluster.member(2).stop();
        cluster.member(2).redis.flushAll();
        cluster.start(2, TestCluster.TIMEOUTS, fastReports);

        cluster.awaitServing(0, 1, 2);
        awaitEverywhere(written, 0, 1, 2);
        cluster.awaitSameState(0, 1, 2);
    }
}
