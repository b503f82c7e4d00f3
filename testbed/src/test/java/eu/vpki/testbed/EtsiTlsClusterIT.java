package eu.vpki.testbed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --etsi-tls} (issue #18): the local cluster with its ETSI endpoints on https only (DC, EA
 * replica, AA with certificates of the run's TLS CA; the CTL lists https URLs; the RCA publishes to the
 * DC, the EA and the AA fetch from it and the AA validates with the EA over https). The demo's stations
 * find everything from the CTL, enrol and fetch pseudonyms over https, trusting that CA only.
 * Needs the service jars: run in the reactor. Ports: {@code -Dvpki.etsi-tls-it.base-port} (HTTP base;
 * JGroups base - 280), default those of {@link LocalClusterIT}, which never runs at the same time.
 */
class EtsiTlsClusterIT {
    @Test
    void demo_withEtsiTls_enrolsAndFetchesOverHttps(@TempDir Path work) throws Exception {
        Path project = Path.of("").toAbsolutePath().getParent();
        Path reports = work.resolve("reports");
        int basePort = Integer.getInteger("vpki.etsi-tls-it.base-port", 28080);
        int exit = new picocli.CommandLine(new eu.vpki.testbed.cli.DemoCommand()).execute("--etsi-tls",
                "--project-dir", project.toString(), "--work-dir", work.resolve("cluster").toString(),
                "--report-dir", reports.toString(), "--stations", "8", "--per-station", "2", "--concurrency", "4",
                "--ea-replicas", "1", "--aas", "1", "--base-port", Integer.toString(basePort),
                "--jgroups-base-port", Integer.toString(ClusterSpec.defaultJgroupsBasePort(basePort)));

        JsonNode report = JsonMapper.builder().build().readTree(Files.readString(reports.resolve("demo.json")));
        JsonNode enrol = report.get("phases").get(0);
        JsonNode fetch = report.get("phases").get(1);
        assertThat(enrol.get("succeeded").asLong()).as("enrolments: %s", enrol.get("failuresByCode")).isEqualTo(8);
        assertThat(fetch.get("succeeded").asLong()).as("ATs: %s", fetch.get("failuresByCode")).isEqualTo(16);
        assertThat(exit).isZero();
        Path logs = work.resolve("cluster/logs");
        ClusterSpec spec = new ClusterSpec(project, work.resolve("cluster"), 1, 1, 1, "FIFO", "ASYNC", basePort,
                ClusterSpec.defaultJgroupsBasePort(basePort), "nistP256");
        assertThat(Files.readString(logs.resolve("dc.log"))).contains("Tomcat started on port " + spec.dcPort() + " (https)");
        // the EA's and the AA's access points: the access point server, TLS only
        assertThat(Files.readString(logs.resolve("ea-0.log"))).contains(":" + spec.eaPort(0) + " (TLS only");
        assertThat(Files.readString(logs.resolve("aa-0.log"))).contains(":" + spec.aaPort(0) + " (TLS only")
                .contains("https calls to other services trust SSL bundle 'peers'");
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).as("child processes left").isZero();
    }
}
