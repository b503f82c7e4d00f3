package eu.vpki.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryFileTest {
    @Test
    void writtenAndReadBack_judgedTheSame(@TempDir Path dir) throws Exception {
        TestRun run = new TestRun(false, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.op(Op.Type.SUSPEND, "s1", "operator-1", 2_000, 17_000, Op.Outcome.UNKNOWN, "client:timeout", null, "status", "SUSPENDED",
                "permissions", TestRun.PERMS);
        run.station("b", "s1", "REVOKED", TestRun.PERMS, 9_000);
        run.token("3@ea-0", "AAAA000000000001", "s1", "ea-0");
        run.appliedEverywhere("operator-0", 1);
        run.fault(FaultKind.PARTITION_COORDINATOR, List.of("operator-0"), 1_500, 30_000, "cut", 1_500, "healed", 25_000);
        run.healed(31_000);
        run.sample("a", 31_500, true, "");
        run.sample("b", 31_600, false, "health 503 OUT_OF_SERVICE");
        run.resources("a", 5_000, 100L << 20, 384L << 20, 20L << 20, 40);
        RunRecord record = run.build();
        Path file = dir.resolve("h.jsonl.gz");

        HistoryFile.write(file, record);
        RunRecord back = HistoryFile.read(file);

        assertThat(back.info()).isEqualTo(record.info());
        assertThat(back.ops()).isEqualTo(record.ops());
        assertThat(back.faults()).isEqualTo(record.faults());
        assertThat(back.eaTokens()).isEqualTo(record.eaTokens());
        assertThat(back.states()).isEqualTo(record.states());
        assertThat(back.serving()).isEqualTo(record.serving());
        assertThat(back.resources()).isEqualTo(record.resources());
        FaultReport before = FaultReport.judge(List.of(record), List.of("x"));
        FaultReport after = FaultReport.judge(List.of(back), List.of("x"));
        assertThat(after.rows()).isEqualTo(before.rows());
        assertThat(after.promises()).isEqualTo(before.promises());
        assertThat(before.violated()).as("the REVOKED station on b diverges").isTrue();
    }
}
