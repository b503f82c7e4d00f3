package eu.vpki.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The view lines the replication library logs, as the harness reads them (incrementally). */
class GroupViewsTest {
    private static final String PREFIX = "2026-11-24T11:51:53.414Z  INFO 21055 --- [vpki-ea] [main] eu.vpki.common.replication.Replica       : ";

    @Test
    void latestView_followsJoinedPlainAndMergeLines_readingOnlyWhatWasAppended(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("ea-1.log");
        GroupViews views = new GroupViews(List.of(), null);
        Files.writeString(log, PREFIX + "replica ea-1 joined vpki-ea (FIFO order, ASYNC propagation), view [operator-1|2] (3) "
                + "[operator-1, operator-0, ea-1]\n" + PREFIX + "an unrelated line\n");

        assertThat(views.latest(log)).hasValueSatisfying(v -> {
            assertThat(v.coordinator()).isEqualTo("operator-1");
            assertThat(v.id()).isEqualTo(2);
            assertThat(v.members()).containsExactly("operator-1", "operator-0", "ea-1");
        });

        Files.writeString(log, PREFIX + "replica ea-1 view MergeView::[operator-1|7] (5) [operator-1, ea-1, ea-2, operator-0, ea-0], "
                + "2 subgroups: [operator-1|5] (3) [operator-1, ea-1, ea-2], [operator-0|6] (2) [operator-0, ea-0]\n"
                + PREFIX + "replica ea-1 view [operator-1|8] (4) [opera", StandardOpenOption.APPEND);

        assertThat(views.latest(log)).hasValueSatisfying(v -> {
            assertThat(v.id()).as("the merge view, not a subgroup, and not the unfinished line").isEqualTo(7);
            assertThat(v.size()).isEqualTo(5);
        });

        Files.writeString(log, "tor-1, ea-1, ea-2, ea-0]\n", StandardOpenOption.APPEND);

        assertThat(views.latest(log)).hasValueSatisfying(v -> assertThat(v.id()).isEqualTo(8));
    }
}
