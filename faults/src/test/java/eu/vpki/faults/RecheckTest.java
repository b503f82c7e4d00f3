package eu.vpki.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code faults --recheck}: kept history files judged again, one report over all, the exit code says whether a promise broke. */
class RecheckTest {
    @Test
    void cleanHistory_exitsZero_violatingOne_exitsOne_andTheReportCoversBoth(@TempDir Path dir) throws Exception {
        Path clean = dir.resolve("clean.history.jsonl.gz");
        HistoryFile.write(clean, history(false));
        Path diverged = dir.resolve("diverged.history.jsonl.gz");
        HistoryFile.write(diverged, history(true));
        Path reports = dir.resolve("reports");

        assertThat(recheck(reports, "clean", clean)).isZero();
        assertThat(Files.readString(reports.resolve("clean.txt"))).contains("1 run").contains("KEPT").doesNotContain("VIOLATED");

        assertThat(recheck(reports, "both", clean, diverged)).isEqualTo(1);
        assertThat(Files.readString(reports.resolve("both.txt"))).contains("2 runs").contains("VIOLATED").contains(diverged.toString());
        assertThat(reports.resolve("both.json")).exists();
        assertThat(Files.readString(reports.resolve("both.html"))).contains("<table>");
    }

    private static int recheck(Path reports, String name, Path... histories) {
        List<String> args = new java.util.ArrayList<>(List.of("--report-dir", reports.toString(), "--name", name, "--recheck"));
        for (Path h : histories) {
            args.add(h.toString());
        }
        return new CommandLine(new eu.vpki.faults.cli.FaultsCommand()).execute(args.toArray(String[]::new));
    }

    /** A registration acknowledged on both replicas; {@code diverged}: replica b holds another status. */
    private static RunRecord history(boolean diverged) {
        TestRun run = new TestRun(true, "a", "b");
        run.registered("s1", 1_000, "1@operator-0");
        run.appliedEverywhere("operator-0", 1);
        run.fault(FaultKind.REPLICA_KILL, List.of("operator-0"), 5_000, 9_000, "killed", 5_000, "restarted", 7_000);
        if (diverged) {
            run.station("b", "s1", "SUSPENDED", TestRun.PERMS, 8_000);
        }
        return run.build();
    }
}
