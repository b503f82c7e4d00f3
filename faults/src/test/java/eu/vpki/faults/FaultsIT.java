package eu.vpki.faults;

import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.testbed.ClusterSpec;
import eu.vpki.testbed.LoopbackNetwork;
import eu.vpki.testbed.ReplicaNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness on real processes, as CI runs it: the local cluster on loopback (RCA, DC, 3 EA and 2
 * Operator replicas each with its own redis-server with an append-only file, an AA; every service
 * its own JVM) in TOTAL + SYNC, the recorded workload, three kill -9 of replica JVMs, each
 * restarted. Then a test-only fault the checks must find: one acknowledged EC deleted from one
 * replica's Redis must be reported as a lost write there, and it and a changed station record as
 * divergence. The history file must judge the same when read back. Before that, the cluster's
 * protections as a client on the machine meets them: a valid operator token over plain HTTP gets no
 * success (the port speaks TLS only) while https with the cluster's CA is served, and a replica's Redis
 * refuses a connection without its password.
 * Needs the service jars: run in the reactor ({@code mvn verify} builds them before this module).
 */
class FaultsIT {
    @Test
    void threeReplicaKills_thenAnInjectedLossAndChange_areFoundByTheChecks(@TempDir Path work) throws Exception {
        Path project = Path.of("").toAbsolutePath().getParent();
        // ports of issue #17's range; -Dvpki.faults-it.base-port moves them (HTTP base, JGroups base + 1000)
        int basePort = Integer.getInteger("vpki.faults-it.base-port", 21500);
        ClusterSpec spec = new ClusterSpec(project, work.resolve("cluster"), 3, 2, 1, "TOTAL", "SYNC", basePort, basePort + 1000,
                "nistP256", "everysec", null);
        FaultSchedule.Timing timing = new FaultSchedule.Timing(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(1),
                Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(2));
        FaultRun.Config config = new FaultRun.Config(spec, 17, Map.of(FaultKind.REPLICA_KILL, 3), timing, Duration.ofSeconds(20),
                Duration.ofSeconds(8), Duration.ofSeconds(3), new ConsistencyWorkload.Settings(15, 16, 0, Duration.ofSeconds(15)), work,
                Duration.ofMinutes(10));
        AtomicReference<Op> dropped = new AtomicReference<>();
        AtomicReference<String> changed = new AtomicReference<>();
        AtomicReference<String> plainHttp = new AtomicReference<>();
        AtomicReference<Integer> https = new AtomicReference<>();
        AtomicReference<String> anonymousRedis = new AtomicReference<>();

        FaultRun.Result result = FaultRun.run(config, new LoopbackNetwork(), (cluster, history) -> {
            // the cluster's protections, as a client on this machine meets them: the Operator speaks TLS only, Redis wants AUTH
            URI operator = cluster.endpoints().operators().get(0);
            String token = "Bearer " + cluster.endpoints().operatorToken();
            HttpResponse<String> plain = HttpClient.newHttpClient()
                    .send(HttpRequest.newBuilder(URI.create("http://" + operator.getHost() + ":"
                            + operator.getPort() + "/operator/v1/stations")).header("Authorization", token).build(),
                            HttpResponse.BodyHandlers.ofString());
            plainHttp.set(plain.statusCode() + " " + plain.body());
            https.set(cluster.client(Duration.ofSeconds(5)).build().send(HttpRequest.newBuilder(operator.resolve("/operator/v1/stations"))
                    .header("Authorization", token).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
            ReplicaNode ea0 = cluster.replica("ea-0");
            try (Jedis anonymous = new Jedis(ea0.redis().host(), ea0.redis().port(), 5_000)) {
                anonymousRedis.set(anonymous.ping());
            } catch (redis.clients.jedis.exceptions.JedisDataException refused) {
                anonymousRedis.set(refused.getMessage());
            }

            Op enrolment = history.stream().filter(o -> o.type().enrolment() && o.acknowledged()).findFirst().orElseThrow();
            Op registration = history.stream().filter(o -> o.type() == Op.Type.REGISTER && o.acknowledged()).findFirst().orElseThrow();
            dropped.set(enrolment);
            changed.set(FleetKeys.station(registration.station()));
            ReplicaNode ea1 = cluster.replica("ea-1");
            ReplicaNode ea2 = cluster.replica("ea-2");
            try (Jedis jedis = ea1.redis().connect(5_000)) {
                jedis.del(FleetKeys.EC + enrolment.detail("ec"));
            }
            try (Jedis jedis = ea2.redis().connect(5_000)) {
                jedis.hset(changed.get(), "maxEcValidity", "1");
            }
        }, line -> System.err.println(java.time.LocalTime.now() + " " + line));

        assertThat(plainHttp.get()).as("a valid operator token over plain HTTP").startsWith("400 ").doesNotContain("canonicalIds");
        assertThat(https.get()).as("the same call over https").isEqualTo(200);
        assertThat(anonymousRedis.get()).as("a replica's Redis without AUTH").startsWith("NOAUTH");

        RunRecord run = result.record();
        assertThat(run.faults()).hasSize(3).allSatisfy(f -> {
            assertThat(f.kind()).isEqualTo(FaultKind.REPLICA_KILL);
            assertThat(f.stepAt("killed")).isPositive();
            assertThat(f.stepAt("healthy")).isGreaterThan(f.stepAt("restarted"));
            assertThat(f.recovered()).as(f.note()).isTrue();
        });
        assertThat(run.ops()).extracting(Op::type).contains(Op.Type.REGISTER, Op.Type.READ, Op.Type.ENROL, Op.Type.AUTHORIZE);
        assertThat(run.ops()).anyMatch(o -> o.type().operatorWrite() && o.type() != Op.Type.REGISTER && o.acknowledged());
        assertThat(run.states()).hasSize(5).allMatch(ReplicaState::readable);
        assertThat(run.eaTokens()).as("the EA's sequence numbers, read from its audit log, for the sequence check").isNotEmpty();

        FaultReport report = FaultReport.judge(List.of(run), List.of(result.history().toString()));
        CheckResult lost = report.runs().get(0).results().get(Check.LOST_WRITES);
        assertThat(lost.findings()).as("the dropped EC is a lost write on ea-1")
                .anyMatch(f -> f.subject().startsWith("op " + dropped.get().id() + " ") && f.detail().contains("ea-1=no record")
                        && f.violation());
        CheckResult divergence = report.runs().get(0).results().get(Check.DIVERGENCE);
        assertThat(divergence.findings()).extracting(Finding::subject)
                .contains(FleetKeys.EC + dropped.get().detail("ec"), changed.get());
        assertThat(report.violated()).isTrue();
        assertThat(run.serving().samples()).as("every replica's health probed from the heal on").isNotEmpty();
        assertThat(report.runs().get(0).results().get(Check.LIVENESS).findings()).as("every replica serving after the heal, no gap")
                .isEmpty();

        assertThat(Files.exists(result.history())).isTrue();
        FaultReport again = FaultReport.judge(List.of(HistoryFile.read(result.history())), List.of(result.history().toString()));
        assertThat(again.rows()).isEqualTo(report.rows());
        assertThat(again.promises()).isEqualTo(report.promises());
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).as("child processes left").isZero();
    }
}
