package eu.vpki.admin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The shared secrets of a PKI, one file each in one directory, readable by their owner only:
 * {@code admin-token} (the RCA admin API), {@code keystore-password} (the authorities' PKCS#12
 * stores), {@code redis-password} (every replica's Redis), {@code operator-token} and
 * {@code operator-credentials} (its salted hash, what the Operator verifies). Each is written only
 * if it does not exist yet, so a restart of the bootstrap changes nothing. {@code bootstrap secrets}
 * and the local launcher both write them through this class.
 *
 * @param dir the directory of the files
 */
public record PkiSecrets(Path dir, String adminToken, String keystorePassword, String redisPassword, String operatorId,
                         String operatorToken) {

    /** Writes the secrets that are missing in {@code dir} and returns all of them. */
    public static PkiSecrets writeOnce(Path dir, String operatorId, SecureRandom random) {
        try {
            Files.createDirectories(dir);
            String operatorToken = writeOnce(dir.resolve("operator-token"), token(random));
            String adminToken = writeOnce(dir.resolve("admin-token"), token(random));
            String keystorePassword = writeOnce(dir.resolve("keystore-password"), token(random));
            String redisPassword = writeOnce(dir.resolve("redis-password"), token(random));
            writeOnce(dir.resolve("operator-credentials"), OperatorCredentialsFile.line(operatorId, operatorToken) + "\n");
            return new PkiSecrets(dir, adminToken, keystorePassword, redisPassword, operatorId, operatorToken);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the secrets into " + dir, e);
        }
    }

    public Path adminTokenFile() {
        return dir.resolve("admin-token");
    }

    public Path keystorePasswordFile() {
        return dir.resolve("keystore-password");
    }

    public Path redisPasswordFile() {
        return dir.resolve("redis-password");
    }

    public Path operatorTokenFile() {
        return dir.resolve("operator-token");
    }

    public Path operatorCredentialsFile() {
        return dir.resolve("operator-credentials");
    }

    /** A random bearer token or password: 24 bytes, base64url. */
    public static String token(SecureRandom random) {
        byte[] b = new byte[24];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static String writeOnce(Path file, String content) throws IOException {
        if (Files.isRegularFile(file)) {
            return Files.readString(file).strip();
        }
        Files.writeString(file, content, StandardCharsets.UTF_8);
        file.toFile().setReadable(false, false);
        file.toFile().setReadable(true, true);
        file.toFile().setWritable(false, false);
        file.toFile().setWritable(true, true);
        return content.strip();
    }
}
