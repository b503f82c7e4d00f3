package eu.vpki.testbed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Where the launcher finds the services' executable jars: {@code <project>/<module>/target/vpki-<module>-<version>.jar}. */
final class ServiceJars {
    /** The service modules a local PKI runs, in the order they start. */
    static final List<String> SERVICE_MODULES = List.of("rca", "dc", "ea", "operator", "aa");

    private ServiceJars() {
    }

    private static java.nio.file.attribute.FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return java.nio.file.attribute.FileTime.fromMillis(0);
        }
    }

    /** The executable jar of {@code module} in a built checkout (the newest, if several versions were built). */
    static Path jar(Path projectDir, String module) {
        Path dir = projectDir.resolve(module).resolve("target");
        try (var files = Files.list(dir)) {
            // the newest: a version change leaves the old version's jar beside the new one
            return files.filter(f -> f.getFileName().toString().matches("vpki-" + module + "-[0-9][^-]*(-SNAPSHOT)?\\.jar"))
                    .max(java.util.Comparator.comparing(ServiceJars::modified))
                    .orElseThrow(
                            () -> new IllegalStateException("no executable jar in " + dir + ": build first (mvn -B -DskipTests package)"));
        } catch (IOException e) {
            throw new IllegalStateException("no " + dir + ": build first (mvn -B -DskipTests package)", e);
        }
    }
}
