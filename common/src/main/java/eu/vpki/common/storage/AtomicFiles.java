package eu.vpki.common.storage;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Writes a file so that a crash leaves either the old or the new content: temp file, fsync, atomic move, fsync of the directory. */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    public static void write(Path target, byte[] content) {
        Path dir = target.toAbsolutePath().getParent();
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, target.getFileName().toString(), ".tmp");
            try {
                try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                    var buffer = java.nio.ByteBuffer.wrap(content);
                    while (buffer.hasRemaining()) {
                        ch.write(buffer);
                    }
                    ch.force(true);
                }
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
            syncDirectory(dir);
        } catch (IOException e) {
            throw new PkiException(ErrorCode.INTERNAL_ERROR, "cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    private static void syncDirectory(Path dir) {
        // makes the rename durable on Linux; not supported everywhere (e.g. Windows), where the move is still atomic
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException ignored) {
            // best effort
        }
    }
}
