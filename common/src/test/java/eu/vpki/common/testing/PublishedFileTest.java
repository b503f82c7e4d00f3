package eu.vpki.common.testing;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PublishedFileTest {
    @BeforeEach
    @AfterEach
    void compareMode() {
        System.clearProperty(PublishedFile.WRITE);
    }

    @Test
    void check_passesOnTheSameText_failsNamingTheFirstDifferentLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("api.yaml");
        Files.writeString(file, "openapi: 3.1.0\npaths:\n  /a: {}\n");

        PublishedFile.check(file, "openapi: 3.1.0\r\npaths:\r\n  /a: {}\r\n");
        assertThatThrownBy(() -> PublishedFile.check(file, "openapi: 3.1.0\npaths:\n  /b: {}\n"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("line 3").hasMessageContaining("published:   /a: {}")
                .hasMessageContaining("generated:   /b: {}");
        assertThatThrownBy(() -> PublishedFile.check(file, "openapi: 3.1.0\npaths:\n  /a: {}\n  /b: {}\n"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("line 4").hasMessageContaining("<end of file>");
        assertThatThrownBy(() -> PublishedFile.check(dir.resolve("missing.yaml"), "x"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("is not published");
    }

    @Test
    void check_rewritesTheFile_whenAsked(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("openapi/api.yaml");
        System.setProperty(PublishedFile.WRITE, "true");

        PublishedFile.check(file, "generated\n");

        assertThat(Files.readString(file)).isEqualTo("generated\n");
    }
}
