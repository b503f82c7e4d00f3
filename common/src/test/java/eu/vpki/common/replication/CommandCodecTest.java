package eu.vpki.common.replication;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandCodecTest {

    private static final Command EVERY_OPERATION = new Command(new CommandId("ea-1", 300), 1_767_225_600_000L, List.of(
            new Operation.PutIfNewer("ea:station:42", 7, Map.of("state", "registered", "name", "Grüße ✓")),
            new Operation.PutIfNewer("ea:station:43", 0, Map.of()),
            new Operation.DeleteIfNewer("ea:station:41", Long.MAX_VALUE),
            new Operation.SetAdd("ea:fleet:op-1", "42"),
            new Operation.SetRemove("ea:fleet:op-1", "41"),
            new Operation.Put("ea:ec-index:ab12", "")));

    @Test
    void roundTrip_preservesEveryOperation() {
        assertThat(CommandCodec.decode(CommandCodec.encode(EVERY_OPERATION))).isEqualTo(EVERY_OPERATION);
    }

    @Test
    void encoding_isCompactAndDeterministic() {
        Command small = new Command(new CommandId("ea-1", 1), 0, List.of(new Operation.SetAdd("k:a", "m")));

        assertThat(CommandCodec.encode(small)).hasSizeLessThan(30);
        assertThat(CommandCodec.encode(EVERY_OPERATION)).isEqualTo(CommandCodec.encode(
                CommandCodec.decode(CommandCodec.encode(EVERY_OPERATION))));
    }

    @Test
    void redelivery_roundTripsItsCommandsInOrder_andIsToldApartFromACommand() {
        Command next = new Command(new CommandId("ea-1", 301), 5, List.of(new Operation.SetAdd("k:a", "m")));
        byte[] redelivery = CommandCodec.encodeRedelivery(List.of(CommandCodec.encode(EVERY_OPERATION), CommandCodec.encode(next)));

        assertThat(CommandCodec.isRedelivery(redelivery)).isTrue();
        assertThat(CommandCodec.isRedelivery(CommandCodec.encode(next))).isFalse();
        assertThat(CommandCodec.isAppliedQuery(redelivery)).isFalse();
        assertThat(CommandCodec.decodeRedelivery(redelivery)).containsExactly(EVERY_OPERATION, next);
        assertThatThrownBy(() -> CommandCodec.decodeRedelivery(java.util.Arrays.copyOf(redelivery, redelivery.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void decode_rejectsAnUnknownFormatVersion() {
        byte[] encoded = CommandCodec.encode(EVERY_OPERATION);
        encoded[0] = 2;

        assertThatThrownBy(() -> CommandCodec.decode(encoded)).hasMessageContaining("unknown command format 2");
    }

    @Test
    void decode_rejectsTruncatedInput() {
        byte[] encoded = CommandCodec.encode(EVERY_OPERATION);
        byte[] truncated = java.util.Arrays.copyOf(encoded, encoded.length - 3);

        assertThatThrownBy(() -> CommandCodec.decode(truncated)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void appliedQuery_roundTripsAndIsDistinguishedFromCommands() {
        CommandId id = new CommandId("op-2", 1_000_000_007L);
        byte[] query = CommandCodec.encodeAppliedQuery(id);

        assertThat(CommandCodec.isAppliedQuery(query)).isTrue();
        assertThat(CommandCodec.isAppliedQuery(CommandCodec.encode(EVERY_OPERATION))).isFalse();
        assertThat(CommandCodec.decodeAppliedQuery(query)).isEqualTo(id);
    }

    @Test
    void commandId_textFormRoundTrips() {
        CommandId id = new CommandId("10.0.0.1:7800", 42);

        assertThat(id.toString()).isEqualTo("42@10.0.0.1:7800");
        assertThat(CommandId.parse(id.toString())).isEqualTo(id);
        assertThatThrownBy(() -> CommandId.parse("ea-1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void putIfNewer_rejectsReservedFieldNames() {
        assertThatThrownBy(() -> new Operation.PutIfNewer("k", 1, Map.of("@version", "9")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
