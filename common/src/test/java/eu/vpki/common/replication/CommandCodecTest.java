package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandCodecTest {

    private static final Command EVERY_OPERATION = new Command(new CommandId("ea-1", 300), 1_767_225_600_000L, List.of(
            new Operation.PutIfNewer("ea:station:42", 7, Map.of("state", "registered", "name", "Grüße ✓")),
            new Operation.PutIfNewer("ea:station:43", 0, Map.of()),
            new Operation.PutIfNewer("ea:station:44", 9, Map.of("status", "REVOKED"), true),
            new Operation.DeleteIfNewer("ea:station:41", Long.MAX_VALUE),
            new Operation.SetAdd("ea:fleet:op-1", "42"),
            new Operation.SetRemove("ea:fleet:op-1", "41"),
            new Operation.Put("ea:ec-index:ab12", ""),
            new Operation.PutPointerIfNewer("ea:station-ec:42", 11, "ec", "0a1b2c3d4e5f6071", "ea:ec:", "status", "SUPERSEDED")));

    @Test
    void snapshotPagesAndRequests_roundTrip_andATruncatedPageIsATypedRefusal() {
        SnapshotPage.Position position = new SnapshotPage.Position(2, "123",
                List.of(new SnapshotPage.PendingSet("k:big", "77"), new SnapshotPage.PendingSet("k:big2", "0")));
        SnapshotPage page = new SnapshotPage(Map.of("ea-1~a", 5L), List.of(
                new SnapshotPage.Entry(SnapshotPage.Entry.Kind.HASH, "k:h", Map.of("f", "v", "@version", "1"), java.util.Set.of(), null),
                new SnapshotPage.Entry(SnapshotPage.Entry.Kind.SET, "k:s", Map.of(), java.util.Set.of("a", "b"), null),
                new SnapshotPage.Entry(SnapshotPage.Entry.Kind.SET_PART, "k:big", Map.of(), java.util.Set.of("c"), null),
                new SnapshotPage.Entry(SnapshotPage.Entry.Kind.STRING, "k:v", Map.of(), java.util.Set.of(), "x")), position);
        SnapshotPage last = new SnapshotPage(Map.of(), List.of(), null);

        assertThat(CommandCodec.decodeSnapshotRequest(CommandCodec.encodeSnapshotRequest(position))).isEqualTo(position);
        assertThat(CommandCodec.decodeSnapshotPage(CommandCodec.encodeSnapshotPage(page))).isEqualTo(page);
        assertThat(CommandCodec.decodeSnapshotPage(CommandCodec.encodeSnapshotPage(last)).last()).isTrue();
        byte[] encoded = CommandCodec.encodeSnapshotPage(page);
        assertThatThrownBy(() -> CommandCodec.decodeSnapshotPage(java.util.Arrays.copyOf(encoded, encoded.length - 3)))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_ENCODING));
    }

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
    void commandList_roundTripsItsCommandsInOrder_andIsToldApartFromACommand() {
        Command next = new Command(new CommandId("ea-1", 301), 5, List.of(new Operation.SetAdd("k:a", "m")));
        byte[] list = CommandCodec.encodeCommands(List.of(CommandCodec.encode(EVERY_OPERATION), CommandCodec.encode(next)));

        assertThat(CommandCodec.kind(list)).isEqualTo(CommandCodec.COMMANDS);
        assertThat(CommandCodec.kind(CommandCodec.encode(next))).isEqualTo(CommandCodec.FORMAT_VERSION);
        assertThat(CommandCodec.decodeCommands(list)).containsExactly(EVERY_OPERATION, next);
        assertThatThrownBy(() -> CommandCodec.decodeCommands(java.util.Arrays.copyOf(list, list.length - 1)))
                .isInstanceOf(PkiException.class);
        assertThatThrownBy(() -> CommandCodec.decodeCommands(CommandCodec.encode(next)))
                .isInstanceOf(PkiException.class);
    }

    @Test
    void report_roundTripsItsVectorAndLogStarts() {
        AppliedReport report = new AppliedReport("ea-1", "ea-1~mi3k2x1c", true,
                Map.of("ea-1~mi3k2x1c", 42L, "op-1~mi3k0000", 7L), Map.of("op-1~mi3k0000", 3L), -7_123_456_789L,
                Map.of("op-1~mi3k0000", 99_000_000_001L, "ea-2~mi3k0001", -5L));

        AppliedReport decoded = CommandCodec.decodeReport(CommandCodec.encodeReport(report));

        assertThat(decoded).isEqualTo(report);
        assertThat(decoded.logFrom("op-1~mi3k0000")).isEqualTo(3);
        assertThat(decoded.logFrom("ea-1~mi3k2x1c")).as("no log: nothing below applied + 1").isEqualTo(43);
        assertThat(decoded.applied("unknown")).isZero();
    }

    @Test
    void pull_roundTrips() {
        CommandCodec.Pull pull = new CommandCodec.Pull("ea-2~mi3k2x1c", 10, 521);

        assertThat(CommandCodec.decodePull(CommandCodec.encodePull(pull))).isEqualTo(pull);
        assertThatThrownBy(() -> CommandCodec.decodeReport(CommandCodec.encodePull(pull)))
                .isInstanceOf(PkiException.class);
    }

    @Test
    void decode_rejectsAnUnknownFormatVersion() {
        byte[] encoded = CommandCodec.encode(EVERY_OPERATION);
        encoded[0] = 3;

        assertThatThrownBy(() -> CommandCodec.decode(encoded)).hasMessageContaining("unknown command format 3");
    }

    /**
     * A replica that predates an operation refuses a command carrying it, loudly: the pointer operation (tag 7, issue
     * #38) needs every replica of the group upgraded; a tag from a newer version is refused the same way here.
     */
    @Test
    void decode_rejectsAnUnknownOperationTag() {
        Command pointer = new Command(new CommandId("ea-1", 1), 0,
                List.of(new Operation.PutPointerIfNewer("k:p", 1, "ec", "ab", "k:ec:", "status", "SUPERSEDED")));
        byte[] encoded = CommandCodec.encode(pointer);
        int tag = 1 + 1 + "ea-1".length() + 1 + 8 + 1; // format, origin (length, bytes), seq, originMillis, count
        assertThat(encoded[tag]).as("the operation's tag").isEqualTo((byte) 7);
        encoded[tag] = 8;

        assertThatThrownBy(() -> CommandCodec.decode(encoded)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_ENCODING)).hasMessageContaining("unknown operation tag 8");
    }

    @Test
    void decode_readsAnUnsignedCommandAsFormat2_asTruncated() {
        // format 2 is a signed command: after the operations come the certificate and the signature
        byte[] encoded = CommandCodec.encode(EVERY_OPERATION);
        encoded[0] = 2;

        assertThatThrownBy(() -> CommandCodec.decode(encoded)).isInstanceOf(PkiException.class)
                .hasMessageContaining("truncated replication command");
    }

    @Test
    void decode_refusesAnOriginWhoseIncarnationEpochExceedsALong() {
        // 13 base-36 digits: accepted by the pattern, but a replica computing its next epoch from it could not join
        Command command = new Command(new CommandId("ea-1~zzzzzzzzzzzz", 1), 0, List.of(new Operation.Put("k", "v")));
        byte[] encoded = CommandCodec.encode(command);
        byte[] overflowing = new String(encoded, java.nio.charset.StandardCharsets.ISO_8859_1)
                .replace("~zzzzzzzzzzzz", "~zzzzzzzzzzzzz").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        overflowing[1]++; // the origin's length

        assertThatThrownBy(() -> CommandCodec.decode(overflowing)).isInstanceOf(PkiException.class)
                .hasMessageContaining("exceeds a long");
    }

    @Test
    void decode_refusesALengthAboveTheBytesLeft_beforeAllocatingIt() {
        // u8 format | str origin: a length of 2^31 - 9 in a 7-byte message (issue #18: it used to allocate 2 GB first)
        byte[] hugeString = {1, (byte) 0xF7, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 'x'};
        assertThatThrownBy(() -> CommandCodec.decode(hugeString)).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_ENCODING)).hasMessageContaining("exceeds the 1 bytes left");
        // a command list claiming 2^31 - 9 commands
        byte[] hugeList = {(byte) CommandCodec.COMMANDS, (byte) 0xF7, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07};
        assertThatThrownBy(() -> CommandCodec.decodeCommands(hugeList)).isInstanceOf(PkiException.class);
        // a put-if-newer claiming 2^31 - 9 fields (the map was sized for them)
        byte[] good = CommandCodec.encode(new Command(new CommandId("ea-1", 1), 5, List.of(new Operation.PutIfNewer("k:a", 1, Map.of()))));
        byte[] hugeFields = java.util.Arrays.copyOf(good, good.length + 4);
        System.arraycopy(new byte[]{(byte) 0xF7, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07}, 0, hugeFields, good.length - 1, 5);
        assertThatThrownBy(() -> CommandCodec.decode(hugeFields)).isInstanceOf(PkiException.class).hasMessageContaining("bytes left");
    }

    @Test
    void decode_rejectsTruncatedInput() {
        byte[] encoded = CommandCodec.encode(EVERY_OPERATION);
        byte[] truncated = java.util.Arrays.copyOf(encoded, encoded.length - 3);

        assertThatThrownBy(() -> CommandCodec.decode(truncated)).isInstanceOf(PkiException.class);
    }

    @Test
    void appliedQuery_roundTripsAndIsDistinguishedFromCommands() {
        CommandId id = new CommandId("op-2", 1_000_000_007L);
        byte[] query = CommandCodec.encodeAppliedQuery(id);

        assertThat(CommandCodec.kind(query)).isEqualTo(CommandCodec.APPLIED_QUERY);
        assertThat(CommandCodec.decodeAppliedQuery(query)).isEqualTo(id);
        assertThatThrownBy(() -> CommandCodec.decodeAppliedQuery(CommandCodec.encode(EVERY_OPERATION)))
                .isInstanceOf(PkiException.class);
    }

    @Test
    void commandId_textFormRoundTrips() {
        CommandId id = new CommandId("10.0.0.1:7800", 42);

        assertThat(id.toString()).isEqualTo("42@10.0.0.1:7800");
        assertThat(CommandId.parse(id.toString())).isEqualTo(id);
        assertThatThrownBy(() -> CommandId.parse("ea-1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void commandId_ofAnIncarnation_namesItsReplicaAndEpoch() {
        String origin = CommandId.incarnation("10.0.0.1:7800", 1_767_225_600_000L);
        CommandId id = new CommandId(origin, 7);

        assertThat(origin).isEqualTo("10.0.0.1:7800~" + Long.toString(1_767_225_600_000L, 36));
        assertThat(id.replicaId()).isEqualTo("10.0.0.1:7800");
        assertThat(CommandId.epochOf(origin)).isEqualTo(1_767_225_600_000L);
        assertThat(CommandId.parse(id.toString())).isEqualTo(id);
        assertThat(new CommandId("ea-1", 1).replicaId()).isEqualTo("ea-1");
        assertThatThrownBy(() -> new CommandId("ea-1~", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CommandId("ea-1~X", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void putIfNewer_rejectsReservedFieldNames() {
        assertThatThrownBy(() -> new Operation.PutIfNewer("k", 1, Map.of("@version", "9")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
