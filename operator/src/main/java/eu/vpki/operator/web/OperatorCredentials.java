package eu.vpki.operator.web;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.fleet.FleetKeys;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.crypto.password.Pbkdf2PasswordEncoder;
import org.springframework.security.crypto.scrypt.SCryptPasswordEncoder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Operator credentials: one line per operator, {@code operatorId:{bcrypt}$2a$10$...} (blank lines and
 * lines starting with {@code #} ignored): a salted, slow hash (Spring Security's password encoders)
 * of the SHA-256 hex of the operator's bearer token. {@code {bcrypt}} (cost 10, what
 * {@link #line(String, String)} writes), {@code {argon2@SpringSecurity_v5_8}},
 * {@code {pbkdf2@SpringSecurity_v5_8}} and {@code {scrypt@SpringSecurity_v5_8}} are accepted; nothing
 * unsalted or fast. Hashing the SHA-256 hex rather than the token itself takes tokens of any length
 * (bcrypt reads at most 72 bytes) and lets an old file of unsalted {@code operatorId:sha256hex} lines
 * be migrated without knowing the tokens ({@code vpki-admin bootstrap migrate-credentials});
 * such an old line fails the start with a message naming that command.
 * <p>
 * A token is checked against every line with the slow hash the first time it is presented (one bcrypt
 * per operator line); a token that verified is then remembered by its SHA-256 in that line's slot
 * (memory bounded by the number of operators), so later calls cost a SHA-256 and a constant-time
 * comparison per line. An unknown token always costs the slow checks: the failed-attempt limit of the
 * service shell bounds how often a client can ask for them. Thread-safe.
 */
public final class OperatorCredentials {
    /** Encoders a line may name; the first one is what new lines get. */
    private static final Map<String, PasswordEncoder> ENCODERS = Map.of(
            "bcrypt", new BCryptPasswordEncoder(10),
            "argon2@SpringSecurity_v5_8", Argon2PasswordEncoder.defaultsForSpringSecurity_v5_8(),
            "pbkdf2@SpringSecurity_v5_8", Pbkdf2PasswordEncoder.defaultsForSpringSecurity_v5_8(),
            "scrypt@SpringSecurity_v5_8", SCryptPasswordEncoder.defaultsForSpringSecurity_v5_8());
    private static final PasswordEncoder ENCODER = new DelegatingPasswordEncoder("bcrypt", ENCODERS);
    private static final Pattern HASH = Pattern.compile("\\{([A-Za-z0-9@_]+)}(\\S+)");
    private static final Pattern LEGACY_HASH = Pattern.compile("[0-9a-fA-F]{64}");
    private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]?\\$\\d\\d\\$[./A-Za-z0-9]{53}");

    /** One operator: its stored hash, and the SHA-256 of the token that last verified against it. */
    private static final class Entry {
        final String operatorId;
        final String storedHash;
        volatile byte[] verified;

        Entry(String operatorId, String storedHash) {
            this.operatorId = operatorId;
            this.storedHash = storedHash;
        }
    }

    private final List<Entry> entries;

    private OperatorCredentials(List<Entry> entries) {
        this.entries = List.copyOf(entries);
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
        List<Entry> entries = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int split = line.indexOf(":{");
            if (split < 0 && LEGACY_HASH.matcher(line.substring(line.lastIndexOf(':') + 1)).matches()) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, "credentials line " + (i + 1) + ": an unsalted SHA-256 "
                        + "(operatorId:sha256hex) is no longer accepted; migrate the file with "
                        + "'vpki-admin bootstrap migrate-credentials --file <file>' (docs/operator.md)");
            }
            String id = split < 0 ? "" : line.substring(0, split);
            String hash = split < 0 ? "" : line.substring(split + 1);
            var m = HASH.matcher(hash);
            if (!FleetKeys.ID.matcher(id).matches() || !m.matches() || !ENCODERS.containsKey(m.group(1))
                    || (m.group(1).equals("bcrypt") && !BCRYPT.matcher(m.group(2)).matches())) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, "credentials line " + (i + 1)
                        + ": expected operatorId:{bcrypt}<hash> (or {argon2@SpringSecurity_v5_8}, {pbkdf2@SpringSecurity_v5_8},"
                        + " {scrypt@SpringSecurity_v5_8})");
            }
            if (!ids.add(id)) {
                throw new PkiException(ErrorCode.DUPLICATE_ID, "credentials line " + (i + 1) + ": operator " + id + " listed twice");
            }
            entries.add(new Entry(id, hash));
        }
        return new OperatorCredentials(entries);
    }

    /** The operator a bearer token belongs to. */
    public Optional<String> authenticate(String token) {
        if (token == null || token.isEmpty()) {
            return Optional.empty();
        }
        byte[] presented = sha256(token);
        Entry match = null;
        for (Entry e : entries) {
            byte[] verified = e.verified;
            if (verified != null && MessageDigest.isEqual(presented, verified)) {
                match = e;
            }
        }
        if (match == null) {
            String preHash = HexFormat.of().formatHex(presented);
            for (Entry e : entries) {
                if (ENCODER.matches(preHash, e.storedHash)) {
                    e.verified = presented;
                    match = e;
                }
            }
        }
        return Optional.ofNullable(match).map(e -> e.operatorId);
    }

    public int size() {
        return entries.size();
    }

    /** A credentials line for an operator and its token, salted and hashed as the file stores it. */
    public static String line(String operatorId, String token) {
        return operatorId + ":" + ENCODER.encode(HexFormat.of().formatHex(sha256(token)));
    }

    private static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
