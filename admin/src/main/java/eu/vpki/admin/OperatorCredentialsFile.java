package eu.vpki.admin;

import org.springframework.security.crypto.bcrypt.BCrypt;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the Operator's credentials file ({@code vpki.operator.credentials-file}) in the format the
 * Operator reads ({@code eu.vpki.operator.web.OperatorCredentials}, docs/operator.md):
 * {@code operatorId:{bcrypt}<bcrypt, cost 10, of the token's SHA-256 hex>}; and migrates a file of
 * the old unsalted lines {@code operatorId:sha256hex} to it without knowing the tokens (the old
 * line holds exactly what the new hash is taken over).
 */
public final class OperatorCredentialsFile {
    /** The bcrypt cost the Operator's own encoder uses: 2^10 rounds. */
    public static final int BCRYPT_COST = 10;
    private static final Pattern OLD_LINE = Pattern.compile("([A-Za-z0-9._:-]{1,64}):([0-9a-fA-F]{64})");
    private static final SecureRandom RANDOM = new SecureRandom();

    private OperatorCredentialsFile() {
    }

    /** The credentials line of an operator and its bearer token. */
    public static String line(String operatorId, String token) {
        return hashed(operatorId, sha256Hex(token));
    }

    /**
     * The lines of a credentials file with every old unsalted line replaced by its salted, slow
     * equivalent; comments, blank lines and lines already migrated are kept as they are.
     */
    public static List<String> migrate(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        for (String line : lines) {
            Matcher m = OLD_LINE.matcher(line.strip());
            out.add(m.matches() ? hashed(m.group(1), m.group(2).toLowerCase(java.util.Locale.ROOT)) : line);
        }
        return out;
    }

    private static String hashed(String operatorId, String tokenSha256Hex) {
        return operatorId + ":{bcrypt}" + BCrypt.hashpw(tokenSha256Hex, BCrypt.gensalt(BCRYPT_COST, RANDOM));
    }

    static String sha256Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
