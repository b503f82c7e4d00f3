package eu.vpki.station;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FleetFileTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    @TempDir
    Path dir;

    private static SimulatedStation station(String id) {
        return SimulatedStation.generate(id, EtsiCurve.NIST_P256, RANDOM);
    }

    private static List<String> ids(List<SimulatedStation> stations) {
        return stations.stream().map(SimulatedStation::canonicalId).toList();
    }

    @Test
    void appendedBatches_readBackInOrder_withTheirKeys() throws IOException {
        Path file = dir.resolve("fleet.json");
        List<SimulatedStation> first = List.of(station("a"), station("b"));
        try (FleetFile.Appender out = FleetFile.Appender.open(file)) {
            out.append(first);
        }
        try (FleetFile.Appender out = FleetFile.Appender.open(file)) {
            out.append(List.of(station("c")));
        }
        List<SimulatedStation> read = FleetFile.read(file);
        assertThat(ids(read)).containsExactly("a", "b", "c");
        assertThat(read.get(0).canonicalKeyHex()).isEqualTo(first.get(0).canonicalKeyHex());
        assertThat(Files.readAllLines(file)).hasSize(3);
    }

    @Test
    void aLastLineCutShortByACrash_isIgnored_andDroppedByTheNextAppender() throws IOException {
        Path file = dir.resolve("fleet.json");
        FleetFile.write(file, List.of(station("a"), station("b")));
        String whole = Files.readString(file);
        Files.writeString(file, whole + whole.substring(0, 30)); // a third line cut after 30 characters
        assertThat(ids(FleetFile.read(file))).containsExactly("a", "b");
        try (FleetFile.Appender out = FleetFile.Appender.open(file)) {
            out.append(List.of(station("c")));
        }
        assertThat(ids(FleetFile.read(file))).containsExactly("a", "b", "c");
    }

    @Test
    void aBrokenLineInTheMiddle_isAnError() throws IOException {
        Path file = dir.resolve("fleet.json");
        FleetFile.write(file, List.of(station("a"), station("b")));
        List<String> lines = Files.readAllLines(file);
        Files.write(file, List.of(lines.get(0), "{\"canonicalId\": broken", lines.get(1)));
        assertThatThrownBy(() -> FleetFile.read(file)).isInstanceOf(IOException.class).hasMessageContaining("line 2");
    }

    @Test
    void theFormerFormat_isStillRead_andAMissingFileIsAnEmptyFleet() throws IOException {
        SimulatedStation a = station("a");
        Path file = dir.resolve("old.json");
        Files.writeString(file, "{\n  \"stations\" : [ {\n    \"canonicalId\" : \"a\",\n    \"curve\" : \"nistP256\",\n"
                + "    \"canonicalKey\" : \"" + HexFormat.of().formatHex(a.canonicalKey().privateScalar()) + "\"\n  } ]\n}");
        List<SimulatedStation> read = FleetFile.read(file);
        assertThat(ids(read)).containsExactly("a");
        assertThat(read.get(0).canonicalKeyHex()).isEqualTo(a.canonicalKeyHex());
        assertThat(FleetFile.read(dir.resolve("none.json"))).isEmpty();
    }
}
