package eu.vpki.faults;

import eu.vpki.testbed.ClusterSpec;
import eu.vpki.testbed.LoopbackNetwork;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CI miniature of issue #34's faults, on real processes (loopback; FIFO + ASYNC, the default
 * deployment): a fleet registered first (the scale mode, at a size CI affords), then a replaced host
 * that joins with an empty Redis after the command logs were trimmed, so that it can only rejoin
 * through a snapshot, and a power loss that cuts the last second of a replica's append-only file.
 * Each fault must be recovered from, the empty join must have taken the snapshot path, the fleet must
 * be on every replica, and every check must hold. The full matrix (every kind, 500 operations/s, a
 * million stations) is a documented command: docs/reliability.md.
 */
class FleetFaultsIT {
    static final long FLEET = 5_000;
    /** The history stays after the run (in the module's target/), to be judged again with {@code --recheck}. */
    static final Path HISTORIES = Path.of("target", "fleet-faults-it").toAbsolutePath();

    @Test
    void emptyJoinThroughASnapshot_andAPowerLoss_loseNothing(@TempDir Path work) throws Exception {
        Path project = Path.of("").toAbsolutePath().getParent();
        // beside FaultsIT's range; -Dvpki.faults-it.fleet-base-port moves them
        int basePort = Integer.getInteger("vpki.faults-it.fleet-base-port", 23500);
        ClusterSpec spec = new ClusterSpec(project, work.resolve("cluster"), 3, 1, 1, "FIFO", "ASYNC", basePort, basePort + 1000,
                "nistP256", "everysec", null);
        FaultSchedule.Timing timing = new FaultSchedule.Timing(Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(1),
                Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(3));
        // no racing writes: in ASYNC two registrations of one id racing at two Operators are both acknowledged and one is
        // kept (docs/reliability.md, findings of issue #34; the enrolment race is merged since the pointer rule of issue #38):
        // this test judges the faults, the matrix the races
        // the warm-up outlasts the log trimming (everything applied 10 s ago, every 5 s): the joiner's commands are gone
        FaultRun.Config config = new FaultRun.Config(spec, 34, Map.of(FaultKind.EMPTY_JOIN, 1, FaultKind.REDIS_DATA_LOSS, 1), timing,
                Duration.ofSeconds(20), Duration.ofSeconds(25), Duration.ofSeconds(5),
                new ConsistencyWorkload.Settings(15, 16, 0, Duration.ofSeconds(15)), HISTORIES, Duration.ofMinutes(10), FLEET);

        Map<String, Long> fleetOnReplica = new java.util.concurrent.ConcurrentHashMap<>();
        FaultRun.Result result = FaultRun.run(config, new LoopbackNetwork(), (cluster, history) -> {
            for (eu.vpki.testbed.ReplicaNode r : cluster.replicas()) {
                try (redis.clients.jedis.Jedis jedis = r.redis().connect(10_000)) {
                    fleetOnReplica.put(r.name(),
                            (long) jedis.keys(eu.vpki.common.fleet.FleetKeys.station(FleetFill.ID_PREFIX) + "*").size());
                }
            }
        }, line -> System.err.println(java.time.LocalTime.now() + " " + line));

        RunRecord run = result.record();
        assertThat(run.faults()).hasSize(2).allSatisfy(f -> assertThat(f.recovered()).as(f.kind() + ": " + f.note()).isTrue());
        FaultEvent join = run.faults().stream().filter(f -> f.kind() == FaultKind.EMPTY_JOIN).findFirst().orElseThrow();
        assertThat(join.note()).as("the replaced host rejoined through a snapshot").contains("rejoined through a snapshot");
        FaultEvent power = run.faults().stream().filter(f -> f.kind() == FaultKind.REDIS_DATA_LOSS).findFirst().orElseThrow();
        assertThat(power.stepAt("aof-cut")).isPositive();
        assertThat(run.info().settings().get("fleet")).startsWith(FLEET + " stations registered");
        assertThat(fleetOnReplica).as("the whole fleet on every replica").hasSize(4).allSatisfy((r, n) -> assertThat(n).isEqualTo(FLEET));
        assertThat(run.states()).hasSize(4).allSatisfy(s -> {
            assertThat(s.readable()).as(s.replica()).isTrue();
            assertThat(s.contents().keySet()).as("the fill is left out of the history").noneMatch(k -> k.contains(FleetFill.ID_PREFIX));
        });
        assertThat(run.states()).extracting(ReplicaState::digest).as("the digests cover the fill")
                .containsOnly(run.states().get(0).digest());

        FaultReport report = FaultReport.judge(List.of(run), List.of(result.history().toString()));
        System.err.println(FaultReportWriter.text(report));
        report.runs().get(0).results().forEach((check, r) -> assertThat(r.findings().stream().filter(Finding::violation))
                .as(check + " holds").isEmpty());
        assertThat(report.violated()).isFalse();
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).as("child processes left").isZero();
    }
}
