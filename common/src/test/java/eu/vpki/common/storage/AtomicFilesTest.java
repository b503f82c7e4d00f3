package eu.vpki.common.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class AtomicFilesTest {
    @Test
    void write_replacesContentAndLeavesNoTemporaryFiles(@TempDir Path dir) throws IOException {
        Path target = dir.resolve("sub/state.bin");
        AtomicFiles.write(target, new byte[]{1, 2, 3});
        AtomicFiles.write(target, new byte[]{4, 5});
        assertThat(Files.readAllBytes(target)).containsExactly(4, 5);
        try (var files = Files.list(target.getParent())) {
            assertThat(files).containsExactly(target);
        }
    }
}
