package eu.vpki.common.redis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class RedisServerBinaryTest {

    @Test
    void embeddedBinary_isWrittenOnceAndReused_noDirectoryPerStart(@TempDir Path tmp) throws Exception {
        byte[] content = {1, 2, 3, 4};
        Path first = RedisServerBinary.extract(content, tmp.resolve("vpki-redis-me"));
        Files.setLastModifiedTime(first, java.nio.file.attribute.FileTime.fromMillis(0));
        Path second = RedisServerBinary.extract(content, tmp.resolve("vpki-redis-me"));

        assertThat(second).isEqualTo(first).isExecutable().hasBinaryContent(content);
        assertThat(Files.getLastModifiedTime(second).toMillis()).as("reused, not rewritten").isZero();
        try (Stream<Path> entries = Files.list(tmp.resolve("vpki-redis-me"))) {
            assertThat(entries).containsExactly(first);
        }
        try (Stream<Path> entries = Files.list(tmp)) {
            assertThat(entries).containsExactly(tmp.resolve("vpki-redis-me"));
        }
    }

    @Test
    void anotherBinary_getsItsOwnFile(@TempDir Path dir) throws Exception {
        Path a = RedisServerBinary.extract(new byte[]{1}, dir);
        Path b = RedisServerBinary.extract(new byte[]{2}, dir);

        assertThat(a).isNotEqualTo(b).hasBinaryContent(new byte[]{1});
        assertThat(b).hasBinaryContent(new byte[]{2});
    }
}
