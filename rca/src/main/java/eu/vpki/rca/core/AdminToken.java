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

/**
 * The bearer token of the admin API: the first line of a token file, else the environment variable
 * {@code VPKI_ADMIN_TOKEN}; none configured means the admin API is disabled. Compared in constant
 * time (over SHA-256 digests, so neither content nor length leaks through timing).
 */
public final class AdminToken {
    public static final String ENV = "VPKI_ADMIN_TOKEN";
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
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, "vpki.admin.token-file: cannot read " + tokenFile + ": " + e.getMessage(), e);
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
     * Checks an HTTP {@code Authorization} header value.
     *
     * @throws PkiException API_DISABLED when no token is configured, UNAUTHENTICATED when the header
     *                      is missing or carries another token
     */
    public void authenticate(String authorizationHeader) {
        if (digest == null) {
            throw new PkiException(ErrorCode.API_DISABLED, "the admin API is disabled: configure vpki.admin.token-file or " + ENV);
        }
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new PkiException(ErrorCode.UNAUTHENTICATED, "an 'Authorization: Bearer <token>' header is required");
        }
        byte[] presented = HashAlgorithm.SHA256.digest(authorizationHeader.substring(7).strip().getBytes(StandardCharsets.UTF_8));
        if (!MessageDigest.isEqual(presented, digest)) {
            throw new PkiException(ErrorCode.UNAUTHENTICATED, "the admin token is not valid");
        }
    }
}
