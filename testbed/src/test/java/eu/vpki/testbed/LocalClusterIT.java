package eu.vpki.testbed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The main job at small scale, as CI runs it: the real local cluster (RCA, DC, EA replicas and an
 * Operator each with its own redis-server, AAs; every service its own JVM), a fleet registered
 * through the Operator, enrolled and fetching pseudonyms through the load client's CLI; the report
 * must show every enrolment and AT succeeded and verified, nothing may be left running, and the
 * class-data archives that make later starts faster must be there.
 * Needs the service jars: run in the reactor ({@code mvn verify} builds them before this module).
 */
class LocalClusterIT {
    @Test
    void demo_smallFleet_allEnrolmentsAndTicketsSucceedAndVerify(@TempDir Path work) throws Exception {
        Path project = Path.of("").toAbsolutePath().getParent();
        Path reports = work.resolve("reports");
        int exit = new picocli.CommandLine(new eu.vpki.testbed.cli.DemoCommand()).execute(
                "--project-dir", project.toString(), "--work-dir", work.resolve("cluster").toString(),
                "--report-dir", reports.toString(), "--stations", "24", "--per-station", "3", "--concurrency", "8",
                "--ea-replicas", "3", "--aas", "2", "--base-port", "28080", "--jgroups-base-port", "27800");

        JsonNode report = JsonMapper.builder().build().readTree(Files.readString(reports.resolve("demo.json")));
        assertThat(report.get("phases")).hasSize(2);
        JsonNode enrol = report.get("phases").get(0);
        JsonNode fetch = report.get("phases").get(1);
        assertThat(enrol.get("phase").asText()).isEqualTo("enrolment");
        assertThat(enrol.get("attempted").asLong()).isEqualTo(24);
        assertThat(enrol.get("succeeded").asLong()).as("enrolments: %s", enrol.get("failuresByCode")).isEqualTo(24);
        assertThat(fetch.get("attempted").asLong()).isEqualTo(72);
        assertThat(fetch.get("succeeded").asLong()).as("ATs: %s", fetch.get("failuresByCode")).isEqualTo(72);
        assertThat(report.get("allSucceeded").asBoolean()).isTrue();
        assertThat(exit).isZero();
        assertThat(work.resolve("cluster").resolve(ClusterStateFile.NAME)).doesNotExist();
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).as("child processes left").isZero();
        // the demo recorded the class-data archives before its cluster started, waiting for each recording
        // JVM to exit (not a race against a stop timeout), so that every later start of this build maps them
        assertThat(ClassDataRecording.current(new ClusterSpec(project, work.resolve("cluster"), 3, 1, 2, "FIFO", "ASYNC",
                28080, 27800, "nistP256"))).as("class-data archives recorded once for this build").isTrue();
    }
}
