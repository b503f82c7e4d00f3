package eu.vpki.admin.status;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StatusTableTest {

    /** The endpoint's answer as the service shell writes it (ReplicationEndpoint.Report), for replica {@code id}. */
    static String json(String id, String state, String detail, long missing, long appliedOfEa0, long log) {
        return """
                {"replication":{"takenAt":"2026-11-29T15:00:00Z","cluster":"vpki",
                  "status":{"state":"%s","replicaId":"%s","origin":"%s~m1","viewSize":3,"expectedMembers":3,
                            "missingCommands":%d,"heldCommands":0,"detail":"%s"},
                  "view":"[ea-0|4]","coordinator":"ea-0",
                  "members":[{"replicaId":"ea-0","origin":"ea-0~m1","self":false,"coordinator":true,"serving":true,
                              "reportAgeMillis":120,"applied":{"ea-0~m1":%d},"behind":0},
                             {"replicaId":"ea-1","origin":"ea-1~m1","self":false,"coordinator":false,"serving":true,
                              "reportAgeMillis":80,"applied":{"ea-0~m1":%d},"behind":0},
                             {"replicaId":"operator-0","origin":"operator-0~m1","self":false,"coordinator":false,"serving":true,
                              "reportAgeMillis":80,"applied":{},"behind":0}],
                  "origins":[{"origin":"ea-0~m1","applied":%d,"newest":1500,"logFrom":1,"logLength":%d,"missingFrom":0,"held":0},
                             {"origin":"ea-0~a0","applied":7,"newest":7,"logFrom":0,"logLength":0,"missingFrom":0,"held":0}],
                  "queuedCommands":0,"redis":{"usedBytes":5347737,"maxBytes":1073741824}},
                 "certificates":[{"name":"ea","subject":"vpki local EA","notAfter":"2027-11-29T00:00:00Z","remainingSeconds":31536000},
                                 {"name":"rca","subject":"vpki local root","notAfter":"2036-11-29T00:00:00Z","remainingSeconds":315360000}]}
                """.formatted(state, id, id, missing, detail, appliedOfEa0, appliedOfEa0, appliedOfEa0, log);
    }

    @Test
    void render_showsEveryReplicaInOneTable_whyOneDoesNotServe_theUnreachable_andThePositionsSideBySide() {
        ReplicaReport ea0 = ReplicaReport.parse(URI.create("http://127.0.0.1:21183"), json("ea-0", "SERVING", "serving", 0, 1500, 1500));
        ReplicaReport ea1 = ReplicaReport.parse(URI.create("http://127.0.0.1:21184"),
                json("ea-1", "CATCHING_UP", "fetching what a majority applied", 1200, 300, -1));
        ReplicaReport down = ReplicaReport.unreadable(URI.create("http://127.0.0.1:21185"), "ConnectException");

        String table = StatusTable.render(List.of(ea0, ea1, down));

        assertThat(table.lines().findFirst().orElseThrow()).startsWith("REPLICA").contains("STATE", "VIEW", "BEHIND", "HELD", "LOG",
                "REDIS", "CERTIFICATES (days left)");
        assertThat(table)
                .containsPattern("(?m)^ea-0 +serving +\\[ea-0\\|4\\] +3/3 +ea-0 +0 +0 +0 +1,500 +5\\.1 MiB / 1\\.0 GiB +ea 365, rca 3650$");
        assertThat(table).containsPattern("(?m)^ea-1 +catching_up .* 1,200 +0 +0 +\\? ");
        assertThat(table).containsPattern("(?m)^http://127\\.0\\.0\\.1:21185 +unreachable");
        assertThat(table).contains("not serving:\n  ea-1: fetching what a majority applied\n  http://127.0.0.1:21185: ConnectException\n");
        assertThat(table).containsPattern("(?m)^APPLIED +ea-0~m1 +ea-1~m1$");
        assertThat(table).containsPattern("(?m)^ea-0 +1,500 +-$").containsPattern("(?m)^ea-1 +300 +-$");
        assertThat(table).contains("1 earlier origin(s) of restarted replicas: every replica applied the same of them");
        assertThat(table).endsWith("1 of 3 replicas serve\n");
    }

    @Test
    void render_saysWhenTheReplicasDisagreeOnTheView() {
        ReplicaReport a = ReplicaReport.parse(URI.create("http://a"), json("ea-0", "SERVING", "serving", 0, 10, 10));
        ReplicaReport b = ReplicaReport.parse(URI.create("http://b"),
                json("ea-1", "MINORITY", "view of 1 holds no majority", 0, 10, 10).replace("[ea-0|4]", "[ea-1|5]"));

        assertThat(StatusTable.render(List.of(a, b))).contains("the replicas do not agree on the view: [ea-0|4], [ea-1|5]");
        assertThat(StatusTable.render(List.of(a, a))).doesNotContain("do not agree");
        ReplicaReport failed = ReplicaReport.parse(URI.create("http://c"),
                json("ea-2", "FAILED", "its Redis failed; rejoining once it answers", 0, 10, 10).replace("\"[ea-0|4]\"", "\"\""));
        assertThat(StatusTable.render(List.of(a, failed))).as("a replica in no view disagrees with nobody").doesNotContain("do not agree")
                .contains("ea-2: its Redis failed; rejoining once it answers");
        assertThat(failed.logCommands()).as("no member: its log is unknown").isEqualTo(-1);
    }

    @Test
    void bytes_andNumbers_areReadable() {
        assertThat(StatusTable.bytes(512)).isEqualTo("512 B");
        assertThat(StatusTable.bytes(1536)).isEqualTo("1.5 KiB");
        assertThat(StatusTable.memory(3L << 30, 0)).isEqualTo("3.0 GiB");
        assertThat(StatusTable.number(1234567)).isEqualTo("1,234,567");
        assertThat(StatusTable.number(-1)).isEqualTo("?");
        assertThat(StatusTable.replicaOf("operator-0~mi3k2x1c")).isEqualTo("operator-0");
    }
}
