package eu.vpki.common.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ExitDeletedDirectoryTest {

    @Test
    void delete_removesTheDirectoryWithItsFilesAndSubdirectories() throws IOException {
        Path dir = ExitDeletedDirectory.create("vpki-exit-deleted-test-");
        Files.writeString(dir.resolve("trust.p12"), "x");
        Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(dir.resolve("a/b/ea-0.p12"), "y");

        ExitDeletedDirectory.delete(dir);

        assertThat(dir).doesNotExist();
    }

    @Test
    void create_inTheTemporaryDirectoryWithThePrefix() throws IOException {
        Path dir = ExitDeletedDirectory.create("vpki-exit-deleted-test-");

        assertThat(dir).isDirectory();
        assertThat(dir.getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath());
        assertThat(dir.getFileName().toString()).startsWith("vpki-exit-deleted-test-");
        ExitDeletedDirectory.delete(dir);
    }

    @Test
    void delete_ofWhatIsGoneDoesNotThrow() throws IOException {
        Path dir = ExitDeletedDirectory.create("vpki-exit-deleted-test-");
        ExitDeletedDirectory.delete(dir);

        ExitDeletedDirectory.delete(dir);

        assertThat(dir).doesNotExist();
    }
}
