package eu.vpki.station;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The simulated fleet on disk, so that {@code register}, {@code enrol} and {@code fetch} can run as
 * separate commands: canonical ids and private keys, and after enrolment the EC and its key.
 * It holds private keys of simulated stations only; keep it out of anything real.
 *
 * <p>One JSON object per line (JSON Lines), so that {@code register} appends each batch the Operator acknowledged as
 * it goes ({@link Appender}) and a run that stops half way leaves every station registered so far: a last line cut
 * short by a crash is ignored when read. {@link #read} also reads the former format, one JSON document
 * {@code {"stations": [...]}}.
 */
public final class FleetFile {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.of();

    private FleetFile() {
    }

    /** Replaces {@code file} with {@code stations}, atomically (a new file moved over the old one). */
    public static void write(Path file, List<SimulatedStation> stations) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "fleet", ".tmp");
        StringBuilder out = new StringBuilder();
        stations.forEach(s -> out.append(line(s)).append('\n'));
        Files.writeString(tmp, out);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The stations {@code file} holds, in file order; an empty list when it does not exist. */
    public static List<SimulatedStation> read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<SimulatedStation> out = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file)) {
            String first = in.readLine();
            while (first != null && first.isBlank()) {
                first = in.readLine();
            }
            if (first == null) {
                return out;
            }
            if (!first.strip().startsWith("{\"canonicalId\"")) {
                // the former format: one document {"stations": [...]}
                JsonNode root = JSON.readTree(Files.readString(file));
                root.get("stations").forEach(n -> out.add(station(n)));
                return out;
            }
            for (String line = first; line != null;) {
                String next = in.readLine();
                if (!line.isBlank()) {
                    try {
                        out.add(station(JSON.readTree(line)));
                    } catch (RuntimeException e) {
                        if (next != null) {
                            throw new IOException("line " + (out.size() + 1) + " of " + file + " is not a station: " + e.getMessage(), e);
                        }
                        // the last line, cut short by a crash while it was appended: that station is not in the file
                    }
                }
                line = next;
            }
        }
        return out;
    }

    /**
     * Appends stations to a fleet file, each batch written and forced to the disk before {@link #append} returns: what
     * the Operator acknowledged is on disk before the next batch is sent.
     */
    public static final class Appender implements AutoCloseable {
        private final FileChannel channel;

        private Appender(FileChannel channel) {
            this.channel = channel;
        }

        /** Opens {@code file} for appending, created if missing. */
        public static Appender open(Path file) throws IOException {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            // a last line cut short by a crash: drop it (read() skips it too), so that the next line starts clean
            long end = endOfLastLine(channel);
            channel.truncate(end);
            channel.position(end);
            return new Appender(channel);
        }

        /** Just after the last newline of the file (0 if it has none). */
        private static long endOfLastLine(FileChannel channel) throws IOException {
            ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
            for (long end = channel.size(); end > 0;) {
                long start = Math.max(0, end - chunk.capacity());
                chunk.clear().limit((int) (end - start));
                while (chunk.hasRemaining() && channel.read(chunk, start + chunk.position()) >= 0) {
                    // read the whole chunk
                }
                for (int i = (int) (end - start) - 1; i >= 0; i--) {
                    if (chunk.get(i) == '\n') {
                        return start + i + 1;
                    }
                }
                end = start;
            }
            return 0;
        }

        /** Appends {@code stations} and forces them to the disk. */
        public void append(List<SimulatedStation> stations) throws IOException {
            StringBuilder out = new StringBuilder();
            stations.forEach(s -> out.append(line(s)).append('\n'));
            ByteBuffer bytes = ByteBuffer.wrap(out.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(false);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    private static String line(SimulatedStation s) {
        ObjectNode n = JSON.createObjectNode();
        n.put("canonicalId", s.canonicalId());
        n.put("curve", s.curve().curveName());
        n.put("canonicalKey", HEX.formatHex(s.canonicalKey().privateScalar()));
        if (s.enrolled()) {
            n.put("ecKey", HEX.formatHex(s.ecKey().privateScalar()));
            n.put("ecCurve", s.ecKey().curve().curveName());
            n.put("ec", HEX.formatHex(s.enrolmentCredential().encoded()));
        }
        return JSON.writeValueAsString(n);
    }

    private static SimulatedStation station(JsonNode n) {
        EtsiCurve curve = EtsiCurve.parse(n.get("curve").asText());
        SimulatedStation s = new SimulatedStation(n.get("canonicalId").asText(),
                EtsiKeyPair.fromPrivateScalar(curve, HEX.parseHex(n.get("canonicalKey").asText())));
        if (n.has("ec")) {
            s.enrolled(EtsiKeyPair.fromPrivateScalar(EtsiCurve.parse(n.get("ecCurve").asText()), HEX.parseHex(n.get("ecKey").asText())),
                    EtsiCertificate.decode(HEX.parseHex(n.get("ec").asText())));
        }
        return s;
    }
}
