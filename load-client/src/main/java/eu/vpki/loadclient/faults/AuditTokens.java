package eu.vpki.loadclient.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The EA does not hand its read-your-writes token to the vehicle, but it writes it in the audit
 * line of every EC it issued ({@code issued EC <id> to station <id> ... <n> replicas, <seq@origin>)},
 * the origin being a replica id with its incarnation ({@code ea-1~mhx2k0a1}) since the replication recovery (#21),
 * logger {@code eu.vpki.audit.ea}). The sequence checker reads them from the EA replicas' logs to
 * see each origin's sequence numbers; without them it judges the Operator's tokens only, and says so.
 */
final class AuditTokens {
    private static final Pattern ISSUED = Pattern.compile(
            "issued EC ([0-9a-fA-F]{16}) to station (\\S+) of operator .*, \\d+ replicas, (\\d+@[A-Za-z0-9._:-]+(?:~[0-9a-z]+)?)\\)");

    private AuditTokens() {
    }

    /** The tokens in one EA replica's log (appended across its restarts). */
    static List<RunRecord.IssuedToken> read(String replica, Path log) throws IOException {
        List<RunRecord.IssuedToken> tokens = new ArrayList<>();
        if (!Files.isRegularFile(log)) {
            return tokens;
        }
        try (BufferedReader in = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.contains("issued EC ")) {
                    Matcher m = ISSUED.matcher(line);
                    if (m.find()) {
                        tokens.add(new RunRecord.IssuedToken(m.group(3), m.group(1).toUpperCase(java.util.Locale.ROOT), m.group(2), replica));
                    }
                }
            }
        }
        return tokens;
    }
}
