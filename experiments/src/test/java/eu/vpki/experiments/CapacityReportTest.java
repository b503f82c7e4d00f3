package eu.vpki.experiments;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The capacity model fed by reports in the experiments' JSON form, with figures worked out by hand:
 * the fit on the replicas runs, each replica count predicted from the others, the centralised
 * saturation bound, the geographic round trips, the 10-50 group prediction.
 */
class CapacityReportTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void replicasCentralisedAndGeo_areFittedValidatedAndExtrapolated() {
        // replicas, FIFO + ASYNC: busiest EA host = 4/n + 1 ms (JVM 3/n + 0.8, redis 1/n + 0.2), exact at n = 3, 5, 7
        ObjectNode replicas = report(PaperValues.DISTRIBUTED);
        for (int n : List.of(3, 5, 7)) {
            sweep(replicas, "EC, FIFO + ASYNC, " + n + " EA replicas", "enrolment", Map.of("mode", "FIFO + ASYNC", "eaReplicas",
                    Integer.toString(n), "operators", "2", "concurrency", "32"), "EC FIFO + ASYNC, " + n + " EA replicas", 250, 40, false);
            cpu(replicas, "EC, FIFO + ASYNC, " + n + " EA replicas", Map.of("Operator JVMs", 0.6, "Operator redis-servers", 0.2,
                    "all processes", 8.0, "busiest EA JVM", 3.0 / n + 0.8, "busiest EA redis-server", 1.0 / n + 0.2, "busiest AA JVM",
                    0.0));
        }
        // centralised: an AT sweep at 1 core per host, the AA the busiest host at 2 ms per AT: 500 AT/s; the machine (2 cores,
        // 3 ms per AT in all) 666.7: the bound is the AA's
        ObjectNode centralised = report(PaperValues.CENTRALISED);
        ObjectNode sweep = sweep(centralised, "AT, 1 core per host", "authorization", Map.of("cpusPerHost", "1"), "AT 1c 100", 100, 20,
                false);
        step(sweep, "AT 1c 250", 250, 25, false);
        step(sweep, "AT 1c 450", 450, 60, true);
        for (String phase : List.of("AT 1c 100", "AT 1c 250", "AT 1c 450")) {
            cpu(centralised, phase, Map.of("busiest AA JVM", 2.0, "busiest EA JVM", 0.7, "busiest EA redis-server", 0.1, "EA JVMs", 0.7,
                    "EA redis-servers", 0.1, "all processes", 3.0));
        }
        // geo: configuration 1 at 12 ms EC and 15 ms AT, configuration 3 in FIFO + SYNC with Ireland - Oregon (70 ms)
        ObjectNode geo = report(PaperValues.GEOGRAPHIC);
        Map<String, String> one = Map.of("configuration", "1", "mode", "FIFO + ASYNC", "oneWayDelayMs", "0", "eaRegion", "eu-west-1",
                "vehiclesRegion", "eu-west-1");
        Map<String, String> three = Map.of("configuration", "3", "mode", "FIFO + SYNC", "oneWayDelayMs", "0", "eaRegion", "eu-west-1",
                "vehiclesRegion", "us-west-2");
        sweep(geo, "EC, everything in Ireland", "enrolment", one, "EC, everything in Ireland", 5, 12, false);
        sweep(geo, "AT, everything in Ireland", "authorization", one, "AT, everything in Ireland", 10, 15, false);
        sweep(geo, "EC, both, FIFO + SYNC", "enrolment", three, "EC, both, FIFO + SYNC", 5, 160, false);
        sweep(geo, "AT, both, FIFO + SYNC", "authorization", three, "AT, both, FIFO + SYNC", 10, 15, false);
        for (String phase : List.of("EC, everything in Ireland", "AT, everything in Ireland", "EC, both, FIFO + SYNC",
                "AT, both, FIFO + SYNC")) {
            cpu(geo, phase, Map.of("all processes", 5.0));
        }

        ExperimentReport r = CapacityReport.build(Map.of(PaperValues.DISTRIBUTED, replicas, PaperValues.CENTRALISED, centralised,
                PaperValues.GEOGRAPHIC, geo), 2, 1, Map.of());

        List<List<String>> terms = table(r, "Model terms").rows();
        assertThat(terms).hasSize(1);
        assertThat(Double.parseDouble(terms.get(0).get(1))).isCloseTo(4.0, within(1e-6));
        assertThat(Double.parseDouble(terms.get(0).get(2))).isCloseTo(1.0, within(1e-6));
        List<List<String>> validation = table(r, "Validation").rows();
        // each replica count predicted from the other two: exact data, no error
        assertThat(validation.stream().filter(v -> v.get(0).startsWith("EA host CPU per EC"))).hasSize(3)
                .allSatisfy(v -> assertThat(Double.parseDouble(v.get(4))).isCloseTo(0, within(1e-6)));
        // machine bound: 2 cores x 1000 / 8 ms = 250 EC/s, as measured
        assertThat(validation.stream().filter(v -> v.get(0).startsWith("EC/s at the run's own CPU per EC, FIFO + ASYNC, 3")))
                .singleElement()
                .satisfies(v -> assertThat(v.get(2)).isEqualTo("250"));
        // centralised: saturation at the AA's 500 AT/s against a measured peak of 450: +11.1 %
        assertThat(validation.stream().filter(v -> v.get(0).equals("saturation, AT, 1 core per host"))).singleElement()
                .satisfies(v -> {
                    assertThat(v.get(2)).isEqualTo("500");
                    assertThat(v.get(3)).isEqualTo("450");
                    assertThat(Double.parseDouble(v.get(4))).isCloseTo(11.11, within(0.01));
                });
        // its 250 AT/s step: rho 0.5, S 2 ms: the floor (the lowest unsaturated p50, 20 ms) + 2 = 22 ms against 25 measured
        assertThat(validation.stream().filter(v -> v.get(0).equals("p50 latency, AT 1c 250"))).singleElement()
                .satisfies(v -> assertThat(Double.parseDouble(v.get(2))).isCloseTo(22, within(1e-6)));
        // geo configuration 3, FIFO + SYNC: 12 + 140 = 152 against 160; its AT: 15 against 15
        assertThat(validation.stream().filter(v -> v.get(0).equals("p50 latency, EC, both, FIFO + SYNC"))).singleElement()
                .satisfies(v -> assertThat(v.get(2)).isEqualTo("152"));
        assertThat(validation.stream().filter(v -> v.get(0).equals("p50 latency, AT, both, FIFO + SYNC"))).singleElement()
                .satisfies(v -> assertThat(Double.parseDouble(v.get(2))).isCloseTo(15, within(1e-6)));
        // 10 groups, all c6i.large: EA host 4/10 + 1 = 1.4 ms on 2 cores = 1,428.6; Operator 0.4 ms on 2 cores = 5,000 -> 1,429
        // AT: 10 AAs x 2 cores / 2 ms = 10,000; EA validation 0.8 ms on 10 x 2 cores = 25,000 -> 10,000
        List<String> ten = table(r, "Prediction").rows().stream().filter(p -> p.get(1).equals("10")).findFirst().orElseThrow();
        assertThat(ten.get(3)).isEqualTo("1,429");
        assertThat(ten.get(4)).isEqualTo("10,000");
        // Terraform defaults: the t3.medium Operator (0.4 core sustained) at 0.4 ms per EC: 1,000 EC/s
        assertThat(ten.get(2)).isEqualTo("1,000");
        assertThat(ten.subList(8, 10)).containsExactly("Operator host", "EA host");
        // older reports have no per-replica table: TOTAL order would be predicted without its sequencer; here only FIFO ran
        assertThat(r.limits()).noneMatch(l -> l.startsWith("The sequencer's cost was not measured"));
        assertThat(r.complete()).isTrue();
        assertThat(r.comparisons()).isNotEmpty();
        assertThat(ExperimentReportWriter.json(r)).contains("Prediction for the paper's 10-50 groups");
    }

    /**
     * The sequencer measured from the per-replica table: in TOTAL + SYNC the coordinator (operator-0) spends 0.1 + 0.02 x
     * (N - 1) ms per EC more than the other Operator, in FIFO + ASYNC nothing more. The fit recovers the terms, each run is
     * predicted from the others without error, and the prediction has the paper's shape: TOTAL order's EC/s falls with
     * groups, bounded by the sequencer; FIFO's does not fall.
     */
    @Test
    void sequencer_isFittedFromTheCoordinatorsExtraCost_andTotalOrderFallsWithGroups() {
        ObjectNode replicas = report(PaperValues.DISTRIBUTED);
        ObjectNode table = ((ArrayNode) replicas.get("tables")).addObject();
        table.put("title", CpuMeter.replicaTable(List.of()).title());
        ArrayNode header = table.putArray("header");
        CpuMeter.replicaTable(List.of()).header().forEach(header::add);
        ArrayNode rows = table.putArray("rows");
        for (String mode : List.of("FIFO + ASYNC", "TOTAL + SYNC")) {
            boolean total = mode.startsWith("TOTAL");
            for (int n : List.of(3, 5, 7, 9)) {
                int members = n + 2;
                String label = "EC, " + mode + ", " + n + " EA replicas";
                // every process: 2 + 0.5 N ms per EC (each member applies every EC): 2,000 / (2 + 0.5 N) EC/s on 2 cores
                double all = 2 + 0.5 * members;
                sweep(replicas, label, "enrolment", Map.of("mode", mode, "eaReplicas", Integer.toString(n), "operators", "2",
                        "concurrency", "32"), "EC " + mode + ", " + n + " EA replicas", 2000 / all, 100, false);
                cpu(replicas, label, Map.of("all processes", all, "busiest EA JVM", 4.0 / n + 1));
                for (int i = 0; i < n; i++) {
                    replicaRow(rows, label, mode, n, members, "ea-" + i, false, 4.0 / n + 1);
                }
                replicaRow(rows, label, mode, n, members, "operator-0", true, 0.8 + (total ? 0.1 + 0.02 * (members - 1) : 0));
                replicaRow(rows, label, mode, n, members, "operator-1", false, 0.8);
            }
        }

        ExperimentReport r = CapacityReport.build(Map.of(PaperValues.DISTRIBUTED, replicas), 2, 1, Map.of());

        List<List<String>> terms = table(r, "Model terms").rows();
        assertThat(terms).hasSize(2);
        List<String> fifo = terms.get(0);
        List<String> total = terms.get(1);
        assertThat(total.get(0)).isEqualTo("TOTAL + SYNC");
        assertThat(total.get(4)).isEqualTo("Operator");
        assertThat(Double.parseDouble(total.get(5))).isCloseTo(0.1, within(1e-6));
        assertThat(Double.parseDouble(total.get(6))).isCloseTo(0.02, within(1e-6));
        assertThat(total.get(7)).isEqualTo("yes");
        assertThat(Double.parseDouble(fifo.get(6))).isCloseTo(0, within(1e-6));
        assertThat(fifo.get(7)).startsWith("no (FIFO");
        List<List<String>> validation = table(r, "Validation").rows();
        assertThat(validation.stream().filter(v -> v.get(0).startsWith("coordinator host CPU per EC"))).hasSize(8)
                .allSatisfy(v -> assertThat(Double.parseDouble(v.get(4))).isCloseTo(0, within(1e-6)));
        assertThat(validation.stream().filter(v -> v.get(0).startsWith("EC/s on this machine"))).hasSize(8)
                .allSatisfy(v -> assertThat(Double.parseDouble(v.get(4))).isCloseTo(0, within(1e-6)));
        List<List<String>> prediction = table(r, "Prediction").rows();
        List<Double> totalEcs = prediction.stream().filter(p -> p.get(0).equals("TOTAL + SYNC")).map(p -> number(p.get(3))).toList();
        List<Double> fifoEcs = prediction.stream().filter(p -> p.get(0).equals("FIFO + ASYNC")).map(p -> number(p.get(3))).toList();
        assertThat(totalEcs).hasSize(CapacityReport.GROUPS.size()).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(totalEcs.get(0)).isGreaterThan(totalEcs.get(totalEcs.size() - 1) * 1.5);
        assertThat(fifoEcs).isSorted();
        // 50 groups, every host c6i.large: the sequencer's host at 0.8 + 0.1 + 0.02 x 99 = 2.88 ms on 2 cores = 694 EC/s
        List<String> fifty = prediction.stream().filter(p -> p.get(0).equals("TOTAL + SYNC") && p.get(1).equals("50")).findFirst()
                .orElseThrow();
        assertThat(fifty.get(3)).isEqualTo("694");
        assertThat(fifty.get(9)).isEqualTo("sequencer (Operator host)");
    }

    private static double number(String cell) {
        return Double.parseDouble(cell.replace(",", ""));
    }

    private static void replicaRow(ArrayNode rows, String phase, String mode, int n, int members, String replica, boolean coordinator,
                                   double hostMs) {
        ArrayNode row = rows.addArray();
        for (String cell : List.of(phase, mode, Integer.toString(n), Integer.toString(members), replica, coordinator ? "yes" : "no",
                String.format(java.util.Locale.ROOT, "%.6f", hostMs), "0.000000", String.format(java.util.Locale.ROOT, "%.6f", hostMs),
                "100.0")) {
            row.add(cell);
        }
    }

    @Test
    void withoutReports_nothingIsPredictedAndTheReportSaysSo() {
        ExperimentReport r = CapacityReport.build(Map.of(), 2, 1, Map.of());
        assertThat(r.complete()).isFalse();
        assertThat(r.limits()).anyMatch(l -> l.startsWith("No replicas report"));
        assertThat(table(r, "Prediction").rows()).isEmpty();
    }

    private static ExperimentReport.Table table(ExperimentReport r, String prefix) {
        return r.tables().stream().filter(t -> t.title().startsWith(prefix)).findFirst().orElseThrow();
    }

    private static ObjectNode report(String experiment) {
        ObjectNode n = JSON.createObjectNode();
        n.put("experiment", experiment);
        n.putArray("sweeps");
        ObjectNode cpu = n.putArray("tables").addObject();
        cpu.put("title", "CPU per successful operation, by kind of process (the capacity model's input)");
        ArrayNode header = cpu.putArray("header");
        CpuMeter.header().forEach(header::add);
        cpu.putArray("rows");
        return n;
    }

    private static ObjectNode sweep(ObjectNode report, String label, String operation, Map<String, String> setting, String phase,
                                    double achieved, double p50, boolean saturated) {
        ObjectNode s = ((ArrayNode) report.get("sweeps")).addObject();
        s.put("label", label);
        s.put("operation", operation);
        ObjectNode set = s.putObject("setting");
        setting.forEach(set::put);
        s.putArray("steps");
        step(s, phase, achieved, p50, saturated);
        return s;
    }

    private static void step(ObjectNode sweep, String phase, double achieved, double p50, boolean saturated) {
        ObjectNode st = ((ArrayNode) sweep.get("steps")).addObject();
        st.put("phase", phase);
        st.put("achievedRate", achieved);
        st.put("succeeded", 100);
        st.putObject("latencyMillis").put("p50", p50);
        st.put("saturated", saturated);
    }

    /** A CPU row: the named columns as given, every other 0. */
    private static void cpu(ObjectNode report, String label, Map<String, Double> values) {
        JsonNode table = report.get("tables").get(0);
        ArrayNode row = ((ArrayNode) table.get("rows")).addArray();
        row.add(label);
        row.add("100");
        for (int i = 2; i < table.get("header").size(); i++) {
            String column = table.get("header").get(i).asText().replace(" (CPU ms per operation)", "");
            row.add(String.format(java.util.Locale.ROOT, "%.6f", values.getOrDefault(column, 0.0)));
        }
    }
}
