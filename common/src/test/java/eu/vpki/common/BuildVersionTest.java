package eu.vpki.common;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class BuildVersionTest {

    @Test
    void current_isWhatTheBuildWrote_projectVersionAndBuildTime() {
        BuildVersion current = BuildVersion.current();
        assertThat(current.version()).isEqualTo(System.getProperty("vpki.test.project-version"));
        assertThat(Instant.parse(current.buildTime())).isBefore(Instant.now().plusSeconds(1));
    }

    /** The checkout's HEAD, also in a linked worktree (where git-commit-id-maven-plugin 9.2.0 named the main worktree's). */
    @Test
    void current_namesTheCommitOfTheCheckoutItWasBuiltIn() throws Exception {
        String head = gitHead();
        assumeTrue(head != null, "no git checkout or no git command (a source tarball): no commit to name");
        assertThat(BuildVersion.current().commit()).isEqualTo(head);
    }

    @Test
    void describe_isOneLineForVersionOptions() {
        Properties p = properties("0.1.0", "abc1234def5678abc1234def5678abc1234def56", "2026-11-29T09:20:00Z");
        assertThat(BuildVersion.of(p).describe()).isEqualTo("vpki 0.1.0 (commit abc1234, built 2026-11-29T09:20:00Z)");
    }

    @Test
    void itemsTheBuildDidNotFillIn_areUnknown() {
        BuildVersion unfiltered = BuildVersion.of(properties("@project.version@", "@buildNumber@", " "));
        assertThat(unfiltered).isEqualTo(new BuildVersion("unknown", "unknown", "unknown"));
        assertThat(BuildVersion.of(new Properties()).describe()).isEqualTo("vpki unknown (commit unknown, built unknown)");
    }

    private static Properties properties(String version, String commit, String buildTime) {
        Properties p = new Properties();
        p.setProperty("version", version);
        p.setProperty("commit", commit);
        p.setProperty("build-time", buildTime);
        return p;
    }

    /** {@code git rev-parse HEAD} in the module's directory; null outside a checkout or without a git command. */
    static String gitHead() throws InterruptedException {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "HEAD").directory(Path.of("").toAbsolutePath().toFile())
                    .redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return git.waitFor(30, TimeUnit.SECONDS) && git.exitValue() == 0 && out.matches("[0-9a-f]{40}") ? out : null;
        } catch (IOException noGit) {
            return null;
        }
    }
}
