package eu.vpki.station;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The simulated fleet on disk, so that {@code register}, {@code enrol} and {@code fetch} can run as
 * separate commands: canonical ids and private keys, and after enrolment the EC and its key.
 * It holds private keys of simulated stations only; keep it out of anything real.
 */
public final class FleetFile {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HexFormat HEX = HexFormat.of();

    private FleetFile() {
    }

    public static void write(Path file, List<SimulatedStation> stations) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode list = root.putArray("stations");
        for (SimulatedStation s : stations) {
            ObjectNode n = list.addObject();
            n.put("canonicalId", s.canonicalId());
            n.put("curve", s.curve().curveName());
            n.put("canonicalKey", HEX.formatHex(s.canonicalKey().privateScalar()));
            if (s.enrolled()) {
                n.put("ecKey", HEX.formatHex(s.ecKey().privateScalar()));
                n.put("ecCurve", s.ecKey().curve().curveName());
                n.put("ec", HEX.formatHex(s.enrolmentCredential().encoded()));
            }
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "fleet", ".tmp");
        Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    public static List<SimulatedStation> read(Path file) throws IOException {
        JsonNode root = JSON.readTree(Files.readString(file));
        List<SimulatedStation> out = new ArrayList<>();
        for (JsonNode n : root.get("stations")) {
            EtsiCurve curve = EtsiCurve.parse(n.get("curve").asText());
            SimulatedStation s = new SimulatedStation(n.get("canonicalId").asText(),
                    EtsiKeyPair.fromPrivateScalar(curve, HEX.parseHex(n.get("canonicalKey").asText())));
            if (n.has("ec")) {
                s.enrolled(EtsiKeyPair.fromPrivateScalar(EtsiCurve.parse(n.get("ecCurve").asText()), HEX.parseHex(n.get("ecKey").asText())),
                        EtsiCertificate.decode(HEX.parseHex(n.get("ec").asText())));
            }
            out.add(s);
        }
        return out;
    }
}
