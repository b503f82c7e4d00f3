package eu.vpki.testbed;

import eu.vpki.station.FleetRegistrar;
import eu.vpki.station.OperatorClient;
import eu.vpki.station.SimulatedStation;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cluster start} on a work directory that holds a PKI starts it again with its state (issue 38): the smallest
 * cluster (1 EA replica, 1 Operator, 1 AA) started, a few stations registered, stopped, started again on the same work
 * directory: the stations are still registered, and the RCA, EA and AA certificates are the same (not certified
 * again). Two starts of the real services (a minute or two each on a busy 2-core machine).
 * Needs the service jars: run in the reactor ({@code mvn verify} builds them before this module).
 */
class ClusterRestartIT {
    @Test
    void restart_keepsTheStationsKeysAndCertificates(@TempDir Path work) throws Exception {
        Path project = Path.of("").toAbsolutePath().getParent();
        int basePort = Integer.getInteger("vpki.cluster-restart-it.base-port", 28580);
        ClusterSpec spec = new ClusterSpec(project, work.resolve("cluster"), 1, 1, 1, "FIFO", "ASYNC", basePort,
                ClusterSpec.defaultJgroupsBasePort(basePort), "nistP256").withRedisMaxMemory(256L << 20);
        SecureRandom random = new SecureRandom();
        List<SimulatedStation> stations = IntStream.range(0, 5)
                .mapToObj(i -> SimulatedStation.generate("RESTART-" + i, EtsiCurve.NIST_P256, random)).toList();
        byte[] rcaCert;
        byte[] eaCert;
        byte[] aaCert;
        assertThat(LocalCluster.holdsPki(spec.workDir())).isFalse();
        try (LocalCluster first = LocalCluster.restart(spec, new LoopbackNetwork(), System.out::println)) {
            HttpClient http = first.client(Duration.ofSeconds(5)).build();
            new FleetRegistrar(http, first.endpoints().operators().get(0), first.endpoints().operatorToken())
                    .register(stations, SimulatedStation.CAM_DENM, Duration.ofDays(30), 2);
            rcaCert = Files.readAllBytes(first.endpoints().rcaCertificate());
            eaCert = Files.readAllBytes(spec.workDir().resolve("ea/ea.cert"));
            aaCert = Files.readAllBytes(spec.workDir().resolve("aa/aa.cert"));
        }
        assertThat(LocalCluster.holdsPki(spec.workDir())).isTrue();

        try (LocalCluster again = LocalCluster.restart(spec, new LoopbackNetwork(), System.out::println)) {
            HttpClient http = again.client(Duration.ofSeconds(5)).build();
            OperatorClient operator = new OperatorClient(http, again.endpoints().operators().get(0), again.endpoints().operatorToken(),
                    Duration.ofSeconds(30));
            assertThat(operator.listAll(100, null)).containsExactlyElementsOf(stations.stream().map(SimulatedStation::canonicalId).sorted()
                    .toList());
            assertThat(Files.readAllBytes(again.endpoints().rcaCertificate())).as("the same RCA").isEqualTo(rcaCert);
            assertThat(Files.readAllBytes(spec.workDir().resolve("ea/ea.cert"))).as("the EA not certified again").isEqualTo(eaCert);
            assertThat(Files.readAllBytes(spec.workDir().resolve("aa/aa.cert"))).as("the AA not certified again").isEqualTo(aaCert);
            // the restarted Operator checks new registrations against that state: registering one again is refused
            assertThat(operator.register(stations.subList(0, 1), SimulatedStation.CAM_DENM, Duration.ofDays(30)).status()).isEqualTo(409);
        }
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).as("child processes left").isZero();
    }
}
