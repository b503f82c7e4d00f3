package eu.vpki.common.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A temporary directory that is removed with everything in it when the JVM exits normally (the
 * benchmarks' and the tests' certificates and key stores). {@code File.deleteOnExit} on the directory
 * alone deletes nothing once files are in it, so every run left its directory in {@code java.io.tmpdir}.
 */
public final class ExitDeletedDirectory {
    private static final List<Path> DIRECTORIES = new ArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ExitDeletedDirectory::deleteAll, "vpki-temporary-directories"));
    }

    private ExitDeletedDirectory() {
    }

    /** A new directory in {@code java.io.tmpdir} whose name starts with {@code prefix}, deleted at exit. */
    public static Path create(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        synchronized (DIRECTORIES) {
            DIRECTORIES.add(dir);
        }
        return dir;
    }

    private static void deleteAll() {
        synchronized (DIRECTORIES) {
            DIRECTORIES.forEach(ExitDeletedDirectory::delete);
            DIRECTORIES.clear();
        }
    }

    /** Deletes {@code dir} and everything below it; what cannot be deleted stays (never throws). */
    static void delete(Path dir) {
        try (Stream<Path> tree = Files.walk(dir)) {
            tree.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    // best effort at exit: a file still open elsewhere stays
                }
            });
        } catch (IOException | RuntimeException e) {
            // already gone, or unreadable: nothing more to do at exit
        }
    }
}
