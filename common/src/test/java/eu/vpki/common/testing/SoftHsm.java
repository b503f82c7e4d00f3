package eu.vpki.common.testing;

import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SoftHSM2 tokens for tests (issue #36). The module reads {@code SOFTHSM2_CONF} once, when the JVM
 * first loads it, and sees only the tokens that exist then: so the tests tagged {@code softhsm} run in a
 * JVM of their own per class (surefire execution {@code softhsm} in the pom, which sets
 * {@code SOFTHSM2_CONF} to {@code target/softhsm/softhsm2.conf}), each class creating its tokens with
 * {@code softhsm2-util} before it opens one. Without SoftHSM2 the tests are skipped with a message,
 * except under {@code CI=true}, where they fail: CI must run them ({@code .ci/run} installs the
 * Debian package {@code softhsm2} when it runs as root).
 */
public final class SoftHsm {
    public static final Path MODULE = Path.of(System.getenv().getOrDefault("VPKI_TEST_PKCS11_MODULE", "/usr/lib/softhsm/libsofthsm2.so"));
    public static final String SO_PIN = "so-pin-1234";
    public static final String PIN = "user-pin-1234";
    private static final Pattern SLOT = Pattern.compile("reassigned to slot (\\d+)");

    private SoftHsm() {
    }

    /** Skips the test (outside CI) or fails it (CI=true) when SoftHSM2 is not installed. */
    public static void requireSoftHsm() {
        String missing = null;
        if (!Files.isReadable(MODULE)) {
            missing = "the SoftHSM2 module " + MODULE + " is missing";
        } else if (!onPath("softhsm2-util")) {
            missing = "softhsm2-util is not on the PATH";
        } else if (System.getenv("SOFTHSM2_CONF") == null) {
            missing = "SOFTHSM2_CONF is not set (run these tests through Maven: the pom's surefire execution 'softhsm' sets it)";
        }
        if (missing == null) {
            return;
        }
        String message = missing + ": install SoftHSM2 (Debian: apt-get install softhsm2) to run the PKCS#11 tests";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            Assertions.fail("CI=true and " + message);
        }
        Assumptions.abort(message);
    }

    /**
     * Creates an initialised token with {@link #PIN} and returns its settings (slot id, not index); a
     * token of that label left by an earlier run (target/ survives between runs) is deleted first.
     */
    public static Pkcs11Settings createToken(String label) {
        requireSoftHsm();
        writeConfiguration();
        deleteStale(label);
        String out = run("softhsm2-util", "--init-token", "--free", "--label", label, "--so-pin", SO_PIN, "--pin", PIN);
        Matcher m = SLOT.matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("softhsm2-util did not name the new token's slot: " + out);
        }
        return new Pkcs11Settings(MODULE, Long.parseLong(m.group(1)), 0, PIN.toCharArray());
    }

    private static final Pattern TOKEN = Pattern
            .compile("Serial number:\\s+(\\S+)\\s+Initialized:\\s+yes\\s+User PIN init\\.:\\s+\\S+\\s+Label:\\s+(\\S+)");

    private static void deleteStale(String label) {
        Matcher m = TOKEN.matcher(run("softhsm2-util", "--show-slots"));
        while (m.find()) {
            if (m.group(2).equals(label)) {
                run("softhsm2-util", "--delete-token", "--serial", m.group(1));
            }
        }
    }

    /** Deletes the token's files, as an operator pulling the token would (the module keeps its slot). */
    public static void deleteToken(String label) {
        run("softhsm2-util", "--delete-token", "--token", label);
    }

    /** The configuration file named by SOFTHSM2_CONF, with its token directory beside it. */
    private static void writeConfiguration() {
        Path conf = Path.of(System.getenv("SOFTHSM2_CONF"));
        Path tokens = conf.resolveSibling("tokens");
        try {
            Files.createDirectories(tokens);
            if (!Files.exists(conf)) {
                Files.writeString(conf, "directories.tokendir = " + tokens.toAbsolutePath() + "\n"
                        + "objectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n", StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + conf + ": " + e.getMessage(), e);
        }
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    private static String run(String... command) {
        try {
            List<String> cmd = new ArrayList<>(List.of(command));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd.subList(0, 2)) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command[0] + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
