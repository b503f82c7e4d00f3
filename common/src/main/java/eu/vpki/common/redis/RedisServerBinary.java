package eu.vpki.common.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * Finds a {@code redis-server} executable for {@link RedisServer}, in this order:
 * <ol>
 *   <li>system property {@code vpki.redis.server} or environment variable {@code VPKI_REDIS_SERVER};</li>
 *   <li>{@code redis-server} on {@code PATH};</li>
 *   <li>the Linux x86-64 binary shipped as resource {@value #EMBEDDED_RESOURCE} in the embedded-redis jar
 *       (a test dependency of every module, a runtime one of the load client), extracted once per user
 *       and reused: {@code <java.io.tmpdir>/vpki-redis-<user>/<resource>-<content hash>}.</li>
 * </ol>
 */
public final class RedisServerBinary {

    public static final String OVERRIDE_PROPERTY = "vpki.redis.server";
    public static final String OVERRIDE_ENV = "VPKI_REDIS_SERVER";
    public static final String EMBEDDED_RESOURCE = "redis-server-6.2.6-v5-linux-amd64";

    private static Path extracted;

    private RedisServerBinary() {
    }

    /** The binary to run; fails with a message saying how to provide one when none is found. */
    public static Path locate() {
        return explicitOverride().or(RedisServerBinary::onPath).orElseGet(RedisServerBinary::embedded);
    }

    /** The binary named by {@code vpki.redis.server} / {@code VPKI_REDIS_SERVER}, if any. */
    public static Optional<Path> explicitOverride() {
        String named = System.getProperty(OVERRIDE_PROPERTY, System.getenv(OVERRIDE_ENV));
        if (named == null || named.isBlank()) {
            return Optional.empty();
        }
        Path path = Path.of(named);
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(OVERRIDE_ENV + " names " + path + ", which is not an executable file");
        }
        return Optional.of(path);
    }

    /** A {@code redis-server} on {@code PATH}, if any. */
    public static Optional<Path> onPath() {
        String pathVariable = System.getenv("PATH");
        if (pathVariable == null) {
            return Optional.empty();
        }
        for (String directory : pathVariable.split(File.pathSeparator)) {
            if (directory.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(directory, "redis-server");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static synchronized Path embedded() {
        if (extracted != null && Files.isExecutable(extracted)) {
            return extracted;
        }
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IllegalStateException("no redis-server on PATH and no embedded binary for " + os + "/" + arch
                    + ": install Redis or set " + OVERRIDE_ENV);
        }
        try (InputStream in = RedisServerBinary.class.getClassLoader().getResourceAsStream(EMBEDDED_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("no redis-server on PATH and resource " + EMBEDDED_RESOURCE
                        + " not on the class path (add com.github.codemonstur:embedded-redis in test scope)"
                        + " or set " + OVERRIDE_ENV);
            }
            String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9_.-]", "_");
            extracted = extract(in.readAllBytes(), Path.of(System.getProperty("java.io.tmpdir"), "vpki-redis-" + user));
            return extracted;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + EMBEDDED_RESOURCE, e);
        }
    }

    /**
     * Writes the binary once into {@code directory}, named after its content, and reuses it from then
     * on (another JVM may be running it: it is never rewritten in place, only renamed into place).
     */
    static Path extract(byte[] content, Path directory) throws IOException {
        String hash;
        try {
            hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Path binary = directory.resolve(EMBEDDED_RESOURCE + "-" + hash);
        if (Files.isRegularFile(binary) && Files.isExecutable(binary) && Files.size(binary) == content.length) {
            return binary;
        }
        Files.createDirectories(directory);
        Path partial = Files.createTempFile(directory, "partial-", "");
        try {
            Files.write(partial, content);
            if (!partial.toFile().setExecutable(true, true)) {
                throw new IllegalStateException("cannot make " + partial + " executable");
            }
            Files.move(partial, binary, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
        return binary;
    }
}
