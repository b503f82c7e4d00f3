package eu.vpki.testbed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The archive bookkeeping, without starting a service (LocalClusterIT records and uses real archives). */
class AppCdsArchiveTest {

    @Test
    void recordedArchiveOfTheSameBuild_isMappedFromTheExtractedJar(@TempDir Path target) throws Exception {
        Path jar = extractedBuild(target, true);
        Path dir = target.resolve("cds/vpki-x-1.0");

        AppCdsArchive archive = AppCdsArchive.of(jar);
        AppCdsArchive.Launch launch = archive.prepare(true, line -> {
        });

        assertThat(archive.isCurrent()).isTrue();
        assertThat(launch.jar()).isEqualTo(dir.resolve("app/vpki-x-1.0.jar"));
        assertThat(launch.jvmOptions()).contains("-XX:SharedArchiveFile=" + dir.resolve("app.jsa"))
                .noneMatch(o -> o.startsWith("-XX:ArchiveClassesAtExit"));
    }

    @Test
    void firstJvmOfABuild_recordsTheArchive_withTheNativeCryptoBackendOff(@TempDir Path target) throws Exception {
        Path jar = extractedBuild(target, false);
        Path dir = target.resolve("cds/vpki-x-1.0");

        AppCdsArchive.Launch recording = AppCdsArchive.of(jar).prepare(true, line -> {
        });
        AppCdsArchive.Launch other = AppCdsArchive.of(jar).prepare(false, line -> {
        });

        // JDK 17 crashes writing a dynamic archive once AWS-LC's classes (a signed jar) made lambdas
        assertThat(recording.jvmOptions()).contains("-XX:ArchiveClassesAtExit=" + dir.resolve("app.jsa"), "-Dvpki.crypto.native=off");
        assertThat(other.jvmOptions()).isEmpty();
    }

    @Test
    void rebuiltJar_isNotCurrent_andAFailedExtractionFallsBackToThePlainJar(@TempDir Path target) throws Exception {
        Path jar = extractedBuild(target, true);
        Path dir = target.resolve("cds/vpki-x-1.0");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().plusSeconds(60))); // "rebuilt"

        AppCdsArchive archive = AppCdsArchive.of(jar);
        List<String> log = new ArrayList<>();
        AppCdsArchive.Launch launch = archive.prepare(true, log::add); // not a Spring Boot jar: extraction fails

        assertThat(archive.isCurrent()).isFalse();
        assertThat(launch.jar()).isEqualTo(jar);
        assertThat(launch.jvmOptions()).isEmpty();
        assertThat(log).singleElement().asString().startsWith("class-data sharing not used for vpki-x-1.0.jar");
        assertThat(dir.resolve("app.jsa")).as("the old build's archive is gone").doesNotExist();
    }

    /** A jar "vpki-x-1.0.jar" in {@code target}, already extracted for its current build, with a recorded archive or not. */
    private static Path extractedBuild(Path target, boolean withArchive) throws java.io.IOException {
        Path jar = Files.write(target.resolve("vpki-x-1.0.jar"), new byte[]{1, 2, 3});
        Path dir = target.resolve("cds/vpki-x-1.0");
        Files.createDirectories(dir.resolve("app"));
        Files.writeString(dir.resolve("stamp"), Files.size(jar) + ":" + Files.getLastModifiedTime(jar).toMillis());
        if (withArchive) {
            Files.write(dir.resolve("app.jsa"), new byte[]{0});
        }
        return jar;
    }
}
