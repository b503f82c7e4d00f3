package eu.vpki.operator.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.fleet.FleetKeys;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Operator credentials: one line per operator, {@code operatorId:sha256hex-of-token} (blank lines
 * and lines starting with {@code #} ignored). Only token hashes are stored; a presented bearer token
 * is hashed and compared in constant time with every entry.
 */
public final class OperatorCredentials {
    private final Map<String, byte[]> tokenHashes;

    private OperatorCredentials(Map<String, byte[]> tokenHashes) {
        this.tokenHashes = tokenHashes;
    }

    /** Reads a credentials file; fails with a message naming the line on any malformed entry. */
    public static OperatorCredentials read(Path file) {
        try {
            return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "cannot read operator credentials " + file + ": " + e.getMessage(), e);
        }
    }

    public static OperatorCredentials parse(List<String> lines) {
        Map<String, byte[]> hashes = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.lastIndexOf(':');
            String id = colon < 0 ? "" : line.substring(0, colon);
            String hex = colon < 0 ? "" : line.substring(colon + 1).toLowerCase(Locale.ROOT);
            if (!FleetKeys.ID.matcher(id).matches() || !hex.matches("[0-9a-f]{64}")) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, "credentials line " + (i + 1) + ": expected operatorId:sha256hex");
            }
            if (hashes.put(id, HexFormat.of().parseHex(hex)) != null) {
                throw new PkiException(ErrorCode.DUPLICATE_ID, "credentials line " + (i + 1) + ": operator " + id + " listed twice");
            }
        }
        return new OperatorCredentials(Map.copyOf(hashes));
    }

    /** The operator a bearer token belongs to. */
    public Optional<String> authenticate(String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        byte[] presented = sha256(token);
        String match = null;
        for (Map.Entry<String, byte[]> e : tokenHashes.entrySet()) {
            if (MessageDigest.isEqual(presented, e.getValue())) {
                match = e.getKey();
            }
        }
        return Optional.ofNullable(match);
    }

    public int size() {
        return tokenHashes.size();
    }

    /** SHA-256 hex of a token, as the credentials file stores it. */
    public static String hashOf(String token) {
        return HexFormat.of().formatHex(sha256(token));
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
