package eu.vpki.rca.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.HashAlgorithm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;

/**
 * The bearer token of the admin API: the first line of a token file, else the environment variable
 * {@code VPKI_ADMIN_TOKEN}; none configured means the admin API is disabled. Compared in constant
 * time (over SHA-256 digests, so neither content nor length leaks through timing). The service shell
 * asks it for every {@code /admin} call (a bearer-token API, {@code eu.vpki.shell.security}).
 */
public final class AdminToken {
    public static final String ENV = "VPKI_ADMIN_TOKEN";
    /** The principal an accepted admin token stands for. */
    public static final String PRINCIPAL = "admin";
    private static final int MIN_LENGTH = 16;

    private final byte[] digest;

    private AdminToken(byte[] digest) {
        this.digest = digest;
    }

    public static AdminToken load(Path tokenFile, Map<String, String> environment) {
        String token = null;
        if (tokenFile != null) {
            try {
                token = Files.readAllLines(tokenFile, StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
            } catch (IOException e) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT,
                        "vpki.admin.token-file: cannot read " + tokenFile + ": " + e.getMessage(), e);
            }
            if (token.isEmpty()) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, "vpki.admin.token-file: " + tokenFile + " is empty");
            }
        } else {
            String env = environment.get(ENV);
            token = env == null || env.isBlank() ? null : env.strip();
        }
        if (token != null && token.length() < MIN_LENGTH) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "the admin token must be at least " + MIN_LENGTH + " characters");
        }
        return new AdminToken(token == null ? null : HashAlgorithm.SHA256.digest(token.getBytes(StandardCharsets.UTF_8)));
    }

    public boolean enabled() {
        return digest != null;
    }

    /**
     * The principal a presented bearer token (the part after {@code Bearer }) stands for:
     * {@value #PRINCIPAL} if it is the admin token, else empty (also when the API is disabled).
     */
    public Optional<String> principalOf(String token) {
        if (digest == null || token == null) {
            return Optional.empty();
        }
        byte[] presented = HashAlgorithm.SHA256.digest(token.getBytes(StandardCharsets.UTF_8));
        return MessageDigest.isEqual(presented, digest) ? Optional.of(PRINCIPAL) : Optional.empty();
    }
}
