package eu.vpki.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The EA does not hand its read-your-writes token to the vehicle, but it writes it in the audit event
 * of every EC it issued ({@code ec-issued ec=<id> station=<id> ... command=<seq@origin>}, the EA's audit
 * log: {@code <audit dir>/ea-audit-<replica>.log} and the files logback rolled it to, docs/service-shell.md).
 * The sequence checker reads them to see each origin's sequence numbers; without them it judges the
 * Operator's tokens only, and says so. Since the replication recovery (#21) the origin carries the
 * replica's incarnation ({@code 12@ea-0~mhx2k0a1}).
 */
final class AuditTokens {
    private static final Pattern ISSUED = Pattern.compile(
            "ec-issued ec=([0-9a-fA-F]{16}) station=(\\S+) .*command=(\\d+@[A-Za-z0-9._:-]+(?:~[0-9a-z]+)?)");

    private AuditTokens() {
    }

    /** The tokens in one EA replica's audit files (appended across its restarts, rolled by logback). */
    static List<RunRecord.IssuedToken> read(String replica, Path auditDir) throws IOException {
        List<RunRecord.IssuedToken> tokens = new ArrayList<>();
        if (!Files.isDirectory(auditDir)) {
            return tokens;
        }
        List<Path> files;
        try (Stream<Path> all = Files.list(auditDir)) {
            files = all.filter(f -> f.getFileName().toString().startsWith("ea-audit-" + replica + ".")).sorted().toList();
        }
        for (Path file : files) {
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    Matcher m = ISSUED.matcher(line);
                    if (m.find()) {
                        tokens.add(
                                new RunRecord.IssuedToken(m.group(3), m.group(1).toUpperCase(java.util.Locale.ROOT), m.group(2), replica));
                    }
                }
            }
        }
        return tokens;
    }
}
