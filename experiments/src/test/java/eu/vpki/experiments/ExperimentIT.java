package eu.vpki.experiments;

import eu.vpki.testbed.CpuLimitedNetwork;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The centralised experiment in miniature, as CI runs it: the real cluster (RCA, DC, one EA and one
 * Operator each with its own redis-server, one AA; every service its own JVM) on loopback, each host
 * limited to one core where this machine has cgroups, an EC sweep and an AT sweep of two short steps
 * each at low rates, through the CLI. The report must hold both sweeps with successes, the paper's
 * table and charts, and nothing may be left running. It checks the pipeline, not the figures: the
 * rates are far below what even a busy 2-core machine serves, and no assertion depends on timing.
 * The replicas experiment likewise: one mode, one small group (2 EA replicas and an Operator), a
 * short closed-loop EC measurement while the fault harness's recorded workload runs, AT/s over one
 * and two AAs, and the harness's checks on the history.
 * And the geographic experiment: one EA replica and an Operator in Ireland, vehicles and the AA first
 * there, then in US West behind delaying proxies (70 ms one way): the second configuration's EC and
 * AT must each take at least one round trip (a lower bound only: a busy machine is slower, never faster);
 * then groups in both regions in FIFO + SYNC (an EA replica, an Operator and an AA in each region,
 * replication between the regions delayed 70 ms one way): the US West vehicles' EC must take at least
 * one round trip (it waits for the Irish replicas: fails if the replication delay is not applied), their
 * AT less than one (it stays in US West: fails if the AA validated across the regions).
 * No report may name an absolute path (the temporary folders would show).
 * Ports: HTTP 29200.., 29400.., 29600.., JGroups 31200.., 31400.., 31600.. (issue #19's range);
 * -Dvpki.experiment-it.base-port moves them.
 * Needs the service jars: run in the reactor ({@code mvn verify} builds them before this module).
 */
class ExperimentIT {
    @Test
    void centralised_miniature_writesAReportWithBothSweepsAndThePapersValues(@TempDir Path work) throws Exception {
        Path project = Path.of("").toAbsolutePath().getParent();
        int basePort = Integer.getInteger("vpki.experiment-it.base-port", 29200);
        Path reports = work.resolve("reports");
        int exit = new CommandLine(new eu.vpki.experiments.cli.ExperimentCommand()).execute("centralised",
                "--project-dir", project.toString(), "--work-dir", work.resolve("cluster").toString(), "--report-dir", reports.toString(),
                "--base-port", Integer.toString(basePort), "--jgroups-base-port", Integer.toString(basePort + 2000),
                "--network", "loopback", "--net-prefix", "vx19i", "--cpus", "1",
                "--ec-start-rate", "2", "--at-start-rate", "3", "--factor", "1.5", "--steps", "2", "--step-duration", "PT2S",
                "--workers", "8", "--budget", "PT5M", "--name", "mini");

        assertThat(exit).as("the experiment ran to its end").isZero();
        JsonNode r = JsonMapper.builder().build().readTree(Files.readString(reports.resolve("mini.json")));
        assertThat(r.get("experiment").asText()).isEqualTo(PaperValues.CENTRALISED);
        assertThat(r.get("complete").asBoolean()).isTrue();
        JsonNode sweeps = r.get("sweeps");
        assertThat(sweeps).hasSize(2);
        assertThat(sweeps.get(0).get("operation").asText()).isEqualTo("enrolment");
        assertThat(sweeps.get(1).get("operation").asText()).isEqualTo("authorization");
        for (JsonNode sweep : sweeps) {
            assertThat(sweep.get("steps").size()).isBetween(1, 2);
            long succeeded = 0;
            for (JsonNode step : sweep.get("steps")) {
                succeeded += step.get("succeeded").asLong();
            }
            assertThat(succeeded).as("%s: %s", sweep.get("label").asText(), sweep.get("steps")).isPositive();
        }
        JsonNode cpu = r.get("tables").get(0);
        assertThat(cpu.get("title").asText()).contains("CPU per successful operation");
        assertThat(cpu.get("rows")).as("one row of CPU costs per step").hasSize(sweeps.get(0).get("steps").size()
                + sweeps.get(1).get("steps").size());
        assertThat(r.get("comparisons")).hasSize(PaperValues.of(PaperValues.CENTRALISED).size());
        assertThat(r.get("comparisons").get(0).get("ours").asText()).contains("AT/s");
        assertThat(r.get("figures")).hasSize(2);
        assertThat(r.get("settings").get("machine").asText()).contains("cores");
        boolean limited = CpuLimitedNetwork.available();
        assertThat(r.get("settings").get("topology").asText()).contains(limited ? "each host limited to 1 core" : "loopback");
        String html = Files.readString(reports.resolve("mini.html"));
        assertThat(html).contains("Figs. 3-5", "paper: ~20 ms before saturation", "What this run cannot show", "<svg");
        assertThat(reports.resolve("mini-sweep1.html")).exists();
        assertThat(reports.resolve("mini-sweep2.json")).exists();
        assertNoAbsolutePath(reports);
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).as("child processes left").isZero();
        if (limited) {
            try (var left = Files.list(Path.of("/sys/fs/cgroup/cpu"))) {
                assertThat(left.map(p -> p.getFileName().toString())).as("cgroups left").noneMatch(n -> n.startsWith("vx19i-"));
            }
        }
    }

    /** The report's JSON and HTML name no absolute path (the temporary folders it ran in would show). */
    private static void assertNoAbsolutePath(Path reports) throws java.io.IOException {
        for (String file : new String[]{"mini.json", "mini.html"}) {
            assertThat(AbsolutePaths.in(Files.readString(reports.resolve(file)))).as("absolute paths in %s", file).isEmpty();
        }
    }

    @Test
    void replicas_miniature_measuresEcAndAtAndReportsTheChecksAnomalies(@TempDir Path work) throws Exception {
        Path project = Path.of("").toAbsolutePath().getParent();
        int basePort = Integer.getInteger("vpki.experiment-it.base-port", 29200) + 200;
        Path reports = work.resolve("reports");
        int exit = new CommandLine(new eu.vpki.experiments.cli.ExperimentCommand()).execute("replicas",
                "--project-dir", project.toString(), "--work-dir", work.resolve("cluster").toString(), "--report-dir", reports.toString(),
                "--base-port", Integer.toString(basePort), "--jgroups-base-port", Integer.toString(basePort + 2000),
                "--network", "loopback", "--net-prefix", "vx19j", "--modes", "FIFO+SYNC", "--replicas", "2", "--operators", "1",
                "--aas", "1,2", "--window", "PT3S", "--concurrency", "4", "--stations", "24", "--rate", "5", "--warmup", "PT2S",
                "--quiet", "PT3S", "--budget", "PT10M", "--name", "mini");

        assertThat(exit).as("every run ran").isZero();
        JsonNode r = JsonMapper.builder().build().readTree(Files.readString(reports.resolve("mini.json")));
        assertThat(r.get("experiment").asText()).isEqualTo(PaperValues.DISTRIBUTED);
        JsonNode sweeps = r.get("sweeps");
        assertThat(sweeps).hasSize(3);
        assertThat(sweeps.get(0).get("operation").asText()).isEqualTo("enrolment");
        assertThat(sweeps.get(1).get("label").asText()).isEqualTo("AT, 1 AAs");
        assertThat(sweeps.get(2).get("label").asText()).isEqualTo("AT, 2 AAs");
        for (JsonNode sweep : sweeps) {
            assertThat(sweep.get("steps").get(0).get("succeeded").asLong()).as("%s", sweep.get("steps")).isPositive();
        }
        assertThat(r.get("tables").get(1).get("rows")).as("CPU costs of the EC and both AT measurements").hasSize(3);
        JsonNode anomalies = r.get("tables").get(0).get("rows");
        assertThat(anomalies).hasSize(1);
        assertThat(anomalies.get(0).get(0).asText()).isEqualTo("FIFO + SYNC");
        assertThat(anomalies.get(0).get(3).asText()).as("the stale-validation check ran").matches("\\d+ .*revocations \\d+.*");
        assertThat(anomalies.get(0).get(4).asText()).as("the read-your-writes check ran").matches("\\d+ .*reads \\d+.*");
        assertThat(reports.resolve(anomalies.get(0).get(5).asText())).as("the history, for --recheck, relative to the report").exists();
        assertThat(r.get("figures")).hasSize(3);
        assertThat(Files.readString(reports.resolve("mini.html"))).contains("Figs. 6-7", "AA scaling needs cores per AA");
        assertNoAbsolutePath(reports);
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).as("child processes left").isZero();
    }

    @Test
    void geo_miniature_addsTheRegionsRoundTripToEcAndAt(@TempDir Path work) throws Exception {
        Path project = Path.of("").toAbsolutePath().getParent();
        int basePort = Integer.getInteger("vpki.experiment-it.base-port", 29200) + 400;
        Path reports = work.resolve("reports");
        int exit = new CommandLine(new eu.vpki.experiments.cli.ExperimentCommand()).execute("geo",
                "--project-dir", project.toString(), "--work-dir", work.resolve("cluster").toString(), "--report-dir", reports.toString(),
                "--base-port", Integer.toString(basePort), "--jgroups-base-port", Integer.toString(basePort + 2000),
                "--network", "loopback", "--net-prefix", "vx19k", "--replicas", "1", "--ec-rate", "3", "--at-rate", "4",
                "--window", "PT2S", "--workers", "8", "--both-regions-modes", "FIFO+SYNC", "--regional-replicas", "1", "--name", "mini");

        assertThat(exit).isZero();
        JsonNode r = JsonMapper.builder().build().readTree(Files.readString(reports.resolve("mini.json")));
        assertThat(r.get("experiment").asText()).isEqualTo(PaperValues.GEOGRAPHIC);
        JsonNode sweeps = r.get("sweeps");
        assertThat(sweeps).hasSize(6);
        for (JsonNode sweep : sweeps) {
            JsonNode step = sweep.get("steps").get(0);
            assertThat(step.get("succeeded").asLong()).as("%s: %s", sweep.get("label").asText(), step).isPositive();
        }
        // vehicles (EC) and the AA (AT validation) reach the EA across 70 ms each way in the second configuration
        assertThat(sweeps.get(2).get("label").asText()).startsWith("EC, vehicles and AAs in Oregon");
        assertThat(sweeps.get(2).get("steps").get(0).get("latencyMillis").get("p50").asDouble()).isGreaterThanOrEqualTo(140);
        assertThat(sweeps.get(3).get("steps").get(0).get("latencyMillis").get("p50").asDouble()).isGreaterThanOrEqualTo(140);
        // groups in both regions, FIFO + SYNC: the EC waits for the Irish replicas (one round trip), the AT stays in US West
        assertThat(sweeps.get(4).get("label").asText()).startsWith("EC, groups in both regions, vehicles in Oregon");
        double ecBoth = sweeps.get(4).get("steps").get(0).get("latencyMillis").get("p50").asDouble();
        double atBoth = sweeps.get(5).get("steps").get(0).get("latencyMillis").get("p50").asDouble();
        assertThat(ecBoth).as("EC in SYNC across the regions").isGreaterThanOrEqualTo(140);
        assertThat(atBoth).as("AT validated in its own region").isLessThan(140);
        assertThat(r.get("comparisons").get(2).get("ours").asText()).contains("FIFO + SYNC");
        assertThat(r.get("settings").get("region table (one-way)").asText()).contains("Ireland - Oregon 70 ms");
        assertNoAbsolutePath(reports);
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).as("child processes left").isZero();
    }
}
