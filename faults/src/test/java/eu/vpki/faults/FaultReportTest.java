package eu.vpki.faults;

import tools.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FaultReportTest {
    @Test
    void rowPerFaultKind_meanDurationOfTheInjectedFaults_inEveryFormat() {
        TestRun run = new TestRun(true, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.appliedEverywhere("operator-0", 1);
        run.fault(FaultKind.REPLICA_KILL, List.of("ea-0"), 10_000, 20_000, "killed", 10_000);
        run.fault(FaultKind.REPLICA_KILL, List.of("ea-1"), 30_000, 50_000, "killed", 30_000);
        run.fault(FaultKind.PAUSE, List.of("ea-2"), 60_000, 68_000, "paused", 60_000);
        run.fault(FaultKind.PARTITION_MINORITY, List.of("ea-2"), 70_000, 70_000);

        FaultReport report = FaultReport.judge(List.of(run.build()), List.of("h"));

        assertThat(report.rows()).extracting(FaultReport.Row::fault)
                .containsExactly("replica-kill", "pause", "partition-minority", "none", "all");
        FaultReport.Row kills = row(report, "replica-kill");
        assertThat(kills.injected()).isEqualTo(2);
        assertThat(kills.meanFaultMs()).isEqualTo(15_000);
        FaultReport.Row skipped = row(report, "partition-minority");
        assertThat(skipped.injected()).isZero();
        assertThat(skipped.skipped()).isEqualTo(1);
        assertThat(skipped.meanFaultMs()).as("a skipped fault has no duration").isZero();
        assertThat(row(report, "all").meanFaultMs()).as("(10 + 20 + 8) s / 3").isEqualTo(12_666);
        assertThat(report.violated()).isFalse();

        String text = FaultReportWriter.text(report);
        assertThat(text).contains("mean s");
        assertThat(text.lines().filter(l -> l.contains("replica-kill")).findFirst().orElseThrow()).contains(" 15.0 ");
        JsonNode json = FaultReportWriter.json(report);
        assertThat(json.toString()).contains("\"meanFaultMs\":15000").contains("\"totalMs\":30000");
        assertThat(FaultReportWriter.html(report)).contains("mean duration s").contains("<td>15.0</td>");
    }

    @Test
    void staleOnALostRevocation_countedApart_andLeftOutOfTheMaxStaleness() {
        TestRun run = new TestRun(true, "a", "b");
        for (String s : new String[]{"s1", "s2"}) {
            run.registered(s, 1_000, null);
            run.acked(Op.Type.REVOKE, s, "operator-0", 2_000, 2_010, null, "status", "REVOKED", "permissions", TestRun.PERMS);
            run.station("a", s, "REVOKED", TestRun.PERMS, 2_000);
        }
        run.station("b", "s1", "REVOKED", TestRun.PERMS, 2_000);
        // s2 stays ACTIVE on b: its revocation is lost there, and the station valid for good
        run.acked(Op.Type.AUTHORIZE, "s1", "aa-0", 2_500, 2_600, null);
        run.acked(Op.Type.AUTHORIZE, "s2", "aa-0", 62_010, 62_100, null);

        FaultReport.Row none = row(FaultReport.judge(List.of(run.build()), List.of("h")), "none");

        assertThat(none.lost()).isEqualTo(1);
        assertThat(none.stale()).isEqualTo(2);
        assertThat(none.staleOnLostRevocation()).isEqualTo(1);
        assertThat(none.maxStalenessMs())
                .as("the lag of s1 only (2,600 - 2,010, judged at the answer), not the 60 s for which s2 was simply never revoked")
                .isEqualTo(590);
    }

    @Test
    void unreadableReplicaAndTwoActiveEcs_haveTheirColumns_andViolateTheirPromises() {
        TestRun run = new TestRun(true, "a", "b", "c");
        run.registered("s1", 1_000, "1@operator-0");
        run.appliedEverywhere("operator-0", 1);
        run.acked(Op.Type.ENROL, "s1", "ea-0", 1_500, 1_520, null, "ec", "AAAA000000000001");
        for (String r : List.of("a", "b")) {
            run.ec(r, "AAAA000000000001", "s1", "ACTIVE", 1_500);
            run.pointer(r, "s1", "AAAA000000000001", 1_500);
        }
        run.ec("a", "AAAA000000000002", "s1", "ACTIVE", 1_400);
        run.unreadable("c", "connection refused");
        run.resources("a", 5_000, 200L << 20, 384L << 20, 30L << 20, 77);

        FaultReport report = FaultReport.judge(List.of(run.build()), List.of("h"));

        FaultReport.Row all = row(report, "all");
        assertThat(all.activeEcViolations()).as("a / s1 with two, and c unreadable").isEqualTo(2);
        assertThat(all.unreadableReplicas()).isEqualTo(1);
        assertThat(all.lost()).as("an unreadable replica is not a lost write").isZero();
        assertThat(all.peakHeapMb()).isEqualTo(200);
        assertThat(all.peakLogEntries()).isEqualTo(77);
        assertThat(report.promises()).filteredOn(p -> p.verdict() == FaultReport.Verdict.VIOLATED).extracting(FaultReport.Promise::check)
                .contains(Check.LOST_WRITES, Check.DIVERGENCE, Check.ONE_ACTIVE_EC);
        assertThat(FaultReportWriter.text(report)).contains("1ec").contains("unread");
    }

    private static FaultReport.Row row(FaultReport report, String fault) {
        return report.rows().stream().filter(r -> r.fault().equals(fault)).findFirst().orElseThrow();
    }
}
