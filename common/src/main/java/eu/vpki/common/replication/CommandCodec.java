package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Binary form of a {@link Command} on the wire and in the command log. Format version 1 (unsigned) and 2
 * (signed by its origin, {@link OriginSignature}):
 * <pre>
 * u8 format (=1) | str origin | varlong seq | i64 originMillis | varint opCount | op*
 * u8 format (=2) | (as format 1 after its first byte) | varint certLength | cert | varint sigLength (=64) | sig
 * op: u8 tag | str key | body
 *   1 PutIfNewer    varlong version | varint n | (str field | str value)*n  (fields sorted)
 *   2 DeleteIfNewer varlong version
 *   3 SetAdd        str member
 *   4 SetRemove     str member
 *   5 Put           str value
 *   6 PutIfNewer, terminal: as 1
 *   7 PutPointerIfNewer varlong version | str field | str value | str targetPrefix | str statusField | str supersededStatus
 * str = varint byteLength | UTF-8;  varint/varlong = unsigned LEB128
 * </pre>
 * A reader rejects unknown format versions and tags, so a newer writer fails loudly, never silently. The
 * signature covers the format 1 encoding of the same command ({@link #unsignedEncoding}), which is what a
 * verifier recomputes: the canonical encoding (fields sorted, shortest varints), whatever bytes carried it.
 *
 * <p>Decoding trusts no length: a length or count larger than the bytes left in the message is refused
 * before anything is allocated for it, so a message never costs more memory than its own size (and a
 * small constant) to decode. Every malformed message (truncated, unknown kind or tag, an implausible
 * length, trailing bytes, a value the records refuse) is a {@link PkiException} with
 * {@link ErrorCode#MALFORMED_ENCODING}, and nothing else.
 *
 * <p>The other message kinds start with a byte that no command starts with:
 * <ul>
 *   <li>{@value #APPLIED_QUERY}, an applied-query (SYNC confirmation, phase 2): {@code str origin | varlong seq};</li>
 *   <li>{@value #COMMANDS}, commands of one origin, ascending by sequence number (the answer to a pull):
 *       {@code varint count | (varint length | command)*count};</li>
 *   <li>{@value #REPORT}, an applied report ({@link AppliedReport}): {@code str replicaId | str origin |
 *       u8 flags (bit 0: serving) | varint n | (str origin | varlong applied | varlong logFrom)*n | i64 stamp |
 *       varint m | (str origin | i64 echoed stamp)*m}, logFrom 0 when the log holds none of that origin;</li>
 *   <li>{@value #PULL}, a request for commands from a peer's log: {@code str origin | varlong from | varlong to};</li>
 *   <li>{@value #APPLIED_ANSWER}, the answer to a delivered SYNC command or to an applied-query:
 *       {@code str origin | varlong seq | u8 applied (0 or 1)};</li>
 *   <li>{@value #SEALED}, any of the four kinds above (never a command) sealed by its sender
 *       ({@link SenderAuthentication}): {@code varint length | message | str replicaId | varint length | address
 *       (JGroups' encoding of the sender's address) | i64 millis | varint certLength | cert | varint sigLength (=64) |
 *       sig}, the signature over everything before {@code cert}, from the kind byte on ({@link #sealedContent});</li>
 *   <li>{@value #TAGGED}, a command as its origin sends it, with its tags for its receivers ({@link ReceiverTags}):
 *       {@code varint length | command | varint n | (receiverId (8 bytes) | tag (32 bytes))*n}; receivers and the command
 *       log keep the command alone (tags are for the receivers of this one message).</li>
 * </ul>
 */
public final class CommandCodec {

    static final int FORMAT_VERSION = 1;
    static final int SIGNED_FORMAT_VERSION = 2;
    static final int APPLIED_QUERY = 0x51;
    static final int COMMANDS = 0x52;
    static final int REPORT = 0x53;
    static final int PULL = 0x54;
    static final int SEALED = 0x55;
    static final int APPLIED_ANSWER = 0x56;
    static final int TAGGED = 0x57;
    static final int SNAPSHOT_REQUEST = 0x58;
    static final int SNAPSHOT_PAGE = 0x59;
    private static final int PUT_IF_NEWER = 1;
    private static final int DELETE_IF_NEWER = 2;
    private static final int SET_ADD = 3;
    private static final int SET_REMOVE = 4;
    private static final int PUT = 5;
    private static final int PUT_TERMINAL = 6;
    /** Since issue #38: a replica without it refuses the command ("unknown operation tag 7"). */
    private static final int PUT_POINTER = 7;

    private CommandCodec() {
    }

    public static byte[] encode(Command command) {
        OriginSignature signature = command.signature();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(signature == null ? 64 : 640);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(signature == null ? FORMAT_VERSION : SIGNED_FORMAT_VERSION);
            writeBody(out, command);
            if (signature != null) {
                writeBytes(out, signature.certificate());
                writeBytes(out, signature.signature());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The format 1 encoding of {@code command} without its signature: what its origin signs. */
    static byte[] unsignedEncoding(Command command) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT_VERSION);
            writeBody(out, command);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeBody(DataOutputStream out, Command command) throws IOException {
        writeString(out, command.id().origin());
        writeVarLong(out, command.id().seq());
        out.writeLong(command.originMillis());
        writeVarLong(out, command.operations().size());
        for (Operation operation : command.operations()) {
            writeOperation(out, operation);
        }
    }

    private static void writeBytes(DataOutputStream out, byte[] value) throws IOException {
        writeVarLong(out, value.length);
        out.write(value);
    }

    public static Command decode(byte[] encoded) {
        return decoding("command", () -> {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
            int format = in.readUnsignedByte();
            if (format != FORMAT_VERSION && format != SIGNED_FORMAT_VERSION) {
                throw new IllegalArgumentException("unknown command format " + format);
            }
            CommandId id = new CommandId(readMessageString(in), readVarLong(in));
            long originMillis = in.readLong();
            int count = readMessageCount(in);
            List<Operation> operations = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                operations.add(readOperation(in));
            }
            OriginSignature signature = null;
            if (format == SIGNED_FORMAT_VERSION) {
                byte[] certificate = readMessageBytes(in);
                if (certificate.length > MAX_CERTIFICATE_BYTES) {
                    throw new IllegalArgumentException("certificate of " + certificate.length + " bytes");
                }
                signature = new OriginSignature(certificate, readMessageBytes(in));
            }
            if (in.available() != 0) {
                throw new IllegalArgumentException(in.available() + " trailing bytes after command " + id);
            }
            return new Command(id, originMillis, operations, signature);
        });
    }

    static byte[] encodeAppliedQuery(CommandId id) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(APPLIED_QUERY);
            writeString(out, id.origin());
            writeVarLong(out, id.seq());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static CommandId decodeAppliedQuery(byte[] encoded) {
        return decoding("applied-query", () -> {
            DataInputStream in = body(encoded, APPLIED_QUERY);
            CommandId id = new CommandId(readMessageString(in), readVarLong(in));
            requireEnd(in, "an applied-query");
            return id;
        });
    }

    /** The kind of a message: {@link #FORMAT_VERSION} for a command (signed or not), else one of the other kinds. */
    static int kind(byte[] encoded) {
        int first = encoded.length == 0 ? -1 : encoded[0] & 0xFF;
        return first == SIGNED_FORMAT_VERSION ? FORMAT_VERSION : first;
    }

    static byte[] encodeCommands(List<byte[]> commands) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + commands.stream().mapToInt(c -> c.length + 4).sum());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(COMMANDS);
            writeVarLong(out, commands.size());
            for (byte[] command : commands) {
                writeVarLong(out, command.length);
                out.write(command);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static List<Command> decodeCommands(byte[] encoded) {
        return decoding("command list", () -> {
            DataInputStream in = body(encoded, COMMANDS);
            int count = readMessageCount(in);
            List<Command> commands = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                commands.add(decode(readMessageBytes(in)));
            }
            requireEnd(in, "a command list");
            return commands;
        });
    }

    static byte[] encodeReport(AppliedReport report) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 32 * report.applied().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(REPORT);
            writeString(out, report.replicaId());
            writeString(out, report.origin());
            out.writeByte(report.serving() ? 1 : 0);
            writeVarLong(out, report.applied().size());
            for (Map.Entry<String, Long> entry : new TreeMap<>(report.applied()).entrySet()) {
                writeString(out, entry.getKey());
                writeVarLong(out, entry.getValue());
                writeVarLong(out, report.logFrom().getOrDefault(entry.getKey(), 0L));
            }
            out.writeLong(report.stamp());
            writeVarLong(out, report.echoes().size());
            for (Map.Entry<String, Long> entry : new TreeMap<>(report.echoes()).entrySet()) {
                writeString(out, entry.getKey());
                out.writeLong(entry.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static AppliedReport decodeReport(byte[] encoded) {
        return decoding("report", () -> {
            DataInputStream in = body(encoded, REPORT);
            String replicaId = readMessageString(in);
            String origin = readMessageString(in);
            boolean serving = (in.readUnsignedByte() & 1) != 0;
            int count = readMessageCount(in);
            Map<String, Long> applied = new HashMap<>();
            Map<String, Long> logFrom = new HashMap<>();
            for (int i = 0; i < count; i++) {
                String of = readMessageString(in);
                applied.put(of, readVarLong(in));
                long first = readVarLong(in);
                if (first > 0) {
                    logFrom.put(of, first);
                }
            }
            long stamp = in.readLong();
            int echoCount = readMessageCount(in);
            Map<String, Long> echoes = new HashMap<>();
            for (int i = 0; i < echoCount; i++) {
                String of = readMessageString(in);
                echoes.put(of, in.readLong());
            }
            requireEnd(in, "a report");
            return new AppliedReport(replicaId, origin, serving, applied, logFrom, stamp, echoes);
        });
    }

    /** A request for {@code origin}'s commands {@code from..to} (inclusive) out of a peer's log. */
    record Pull(String origin, long from, long to) {
    }

    static byte[] encodePull(Pull pull) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(48);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(PULL);
            writeString(out, pull.origin());
            writeVarLong(out, pull.from());
            writeVarLong(out, pull.to());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Pull decodePull(byte[] encoded) {
        return decoding("pull", () -> {
            DataInputStream in = body(encoded, PULL);
            Pull pull = new Pull(readMessageString(in), readVarLong(in), readVarLong(in));
            requireEnd(in, "a pull");
            return pull;
        });
    }

    /** A request for the page of a peer's state that begins at {@code position} ({@link SnapshotPage}). */
    static byte[] encodeSnapshotRequest(SnapshotPage.Position position) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(SNAPSHOT_REQUEST);
            writePosition(out, position);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static SnapshotPage.Position decodeSnapshotRequest(byte[] encoded) {
        return decoding("snapshot request", () -> {
            DataInputStream in = body(encoded, SNAPSHOT_REQUEST);
            SnapshotPage.Position position = readPosition(in);
            requireEnd(in, "a snapshot request");
            return position;
        });
    }

    static byte[] encodeSnapshotPage(SnapshotPage page) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(
                (int) Math.min(Integer.MAX_VALUE - 64, 64 + page.entries().stream().mapToLong(SnapshotPage.Entry::size).sum()));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(SNAPSHOT_PAGE);
            writeVarLong(out, page.applied().size());
            for (Map.Entry<String, Long> entry : new TreeMap<>(page.applied()).entrySet()) {
                writeString(out, entry.getKey());
                writeVarLong(out, entry.getValue());
            }
            writeVarLong(out, page.entries().size());
            for (SnapshotPage.Entry entry : page.entries()) {
                out.writeByte(entry.kind().ordinal());
                writeString(out, entry.key());
                switch (entry.kind()) {
                    case HASH -> {
                        writeVarLong(out, entry.pairs().size());
                        for (Map.Entry<String, String> pair : entry.pairs().entrySet()) {
                            writeString(out, pair.getKey());
                            writeString(out, pair.getValue());
                        }
                    }
                    case SET, SET_PART -> {
                        writeVarLong(out, entry.members().size());
                        for (String member : entry.members()) {
                            writeString(out, member);
                        }
                    }
                    case STRING -> writeString(out, entry.value());
                }
            }
            out.writeByte(page.last() ? 0 : 1);
            if (!page.last()) {
                writePosition(out, page.next());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static SnapshotPage decodeSnapshotPage(byte[] encoded) {
        return decoding("snapshot page", () -> {
            DataInputStream in = body(encoded, SNAPSHOT_PAGE);
            int tableSize = readMessageCount(in);
            Map<String, Long> applied = new HashMap<>();
            for (int i = 0; i < tableSize; i++) {
                applied.put(readMessageString(in), readVarLong(in));
            }
            int count = readMessageCount(in);
            List<SnapshotPage.Entry> entries = new ArrayList<>(count);
            SnapshotPage.Entry.Kind[] kinds = SnapshotPage.Entry.Kind.values();
            for (int i = 0; i < count; i++) {
                int kind = in.readUnsignedByte();
                if (kind >= kinds.length) {
                    throw new IllegalArgumentException("unknown snapshot entry kind " + kind);
                }
                String key = readMessageString(in);
                entries.add(switch (kinds[kind]) {
                    case HASH -> {
                        int pairs = readMessageCount(in);
                        Map<String, String> fields = new HashMap<>(Math.min(pairs, 64) * 2);
                        for (int j = 0; j < pairs; j++) {
                            fields.put(readMessageString(in), readMessageString(in));
                        }
                        yield new SnapshotPage.Entry(kinds[kind], key, fields, Set.of(), null);
                    }
                    case SET, SET_PART -> {
                        int size = readMessageCount(in);
                        Set<String> members = new HashSet<>(Math.min(size, 1_024) * 2);
                        for (int j = 0; j < size; j++) {
                            members.add(readMessageString(in));
                        }
                        yield new SnapshotPage.Entry(kinds[kind], key, Map.of(), members, null);
                    }
                    case STRING -> new SnapshotPage.Entry(kinds[kind], key, Map.of(), Set.of(), readMessageString(in));
                });
            }
            int more = in.readUnsignedByte();
            if (more > 1) {
                throw new IllegalArgumentException("snapshot page continuation flag " + more);
            }
            SnapshotPage.Position next = more == 1 ? readPosition(in) : null;
            requireEnd(in, "a snapshot page");
            return new SnapshotPage(applied, entries, next);
        });
    }

    private static void writePosition(DataOutputStream out, SnapshotPage.Position position) throws IOException {
        writeVarLong(out, position.prefix());
        writeString(out, position.cursor());
        writeVarLong(out, position.pending().size());
        for (SnapshotPage.PendingSet set : position.pending()) {
            writeString(out, set.key());
            writeString(out, set.cursor());
        }
    }

    private static SnapshotPage.Position readPosition(DataInputStream in) throws IOException {
        long prefix = readVarLong(in);
        if (prefix > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("implausible prefix index " + prefix);
        }
        String cursor = readMessageString(in);
        int count = readMessageCount(in);
        List<SnapshotPage.PendingSet> pending = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            pending.add(new SnapshotPage.PendingSet(readMessageString(in), readMessageString(in)));
        }
        return new SnapshotPage.Position((int) prefix, cursor, pending);
    }

    /** Whether {@code id} is applied: what a member answers to a delivered SYNC command and to an applied-query. */
    record AppliedAnswer(CommandId id, boolean applied) {
    }

    static byte[] encodeAppliedAnswer(AppliedAnswer answer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(40);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(APPLIED_ANSWER);
            writeString(out, answer.id().origin());
            writeVarLong(out, answer.id().seq());
            out.writeByte(answer.applied() ? 1 : 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static AppliedAnswer decodeAppliedAnswer(byte[] encoded) {
        return decoding("applied answer", () -> {
            DataInputStream in = body(encoded, APPLIED_ANSWER);
            CommandId id = new CommandId(readMessageString(in), readVarLong(in));
            int applied = in.readUnsignedByte();
            if (applied > 1) {
                throw new IllegalArgumentException("applied flag " + applied);
            }
            requireEnd(in, "an applied answer");
            return new AppliedAnswer(id, applied == 1);
        });
    }

    /**
     * A sealed message ({@link #SEALED}) as received.
     *
     * @param signed what the signature covers: the encoding up to and including {@code millis}
     */
    record Sealed(byte[] message, String replicaId, byte[] address, long millis, byte[] certificate, byte[] signature,
                  byte[] signed) {
    }

    /** What the sender of a sealed message signs: {@code message} sent by {@code replicaId} from {@code address} at {@code millis}. */
    static byte[] sealedContent(byte[] message, String replicaId, byte[] address, long millis) {
        if (message.length == 0 || kind(message) == FORMAT_VERSION || kind(message) == SEALED) {
            throw new IllegalArgumentException("only reports, pulls, command lists, applied-queries and answers are sealed");
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(message.length + 96);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(SEALED);
            writeBytes(out, message);
            writeString(out, replicaId);
            writeBytes(out, address);
            out.writeLong(millis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** {@code signed} ({@link #sealedContent}) followed by the signer's certificate and signature. */
    static byte[] encodeSealed(byte[] signed, byte[] certificate, byte[] signature) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(signed.length + certificate.length + signature.length + 8);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(signed);
            writeBytes(out, certificate);
            writeBytes(out, signature);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Sealed decodeSealed(byte[] encoded) {
        return decoding("sealed message", () -> {
            DataInputStream in = body(encoded, SEALED);
            byte[] message = readMessageBytes(in);
            int inner = kind(message);
            if (inner != APPLIED_QUERY && inner != COMMANDS && inner != REPORT && inner != PULL && inner != APPLIED_ANSWER
                    && inner != SNAPSHOT_REQUEST && inner != SNAPSHOT_PAGE) {
                throw new IllegalArgumentException("a sealed message of kind " + inner);
            }
            String replicaId = readMessageString(in);
            byte[] address = readMessageBytes(in);
            long millis = in.readLong();
            int signedLength = encoded.length - in.available();
            byte[] certificate = readMessageBytes(in);
            if (certificate.length > MAX_CERTIFICATE_BYTES) {
                throw new IllegalArgumentException("certificate of " + certificate.length + " bytes");
            }
            byte[] signature = readMessageBytes(in);
            requireEnd(in, "a sealed message");
            return new Sealed(message, replicaId, address, millis, certificate, signature, Arrays.copyOf(encoded, signedLength));
        });
    }

    /**
     * A command with its receivers' tags ({@link #TAGGED}), as received.
     *
     * @param command the command's encoding (a command, signed or not)
     */
    record Tagged(byte[] command, List<ReceiverTags.Tag> tags) {
        /** The tag for the receiver with {@code receiverId}, or null. */
        byte[] tagFor(byte[] receiverId) {
            for (ReceiverTags.Tag tag : tags) {
                if (Arrays.equals(tag.receiverId(), receiverId)) {
                    return tag.tag();
                }
            }
            return null;
        }
    }

    /** {@code command} (its encoding) with {@code tags}. */
    static byte[] encodeTagged(byte[] command, List<ReceiverTags.Tag> tags) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(command.length + 8
                + tags.size() * (ReceiverTags.ID_BYTES + ReceiverTags.TAG_BYTES));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(TAGGED);
            writeBytes(out, command);
            writeVarLong(out, tags.size());
            for (ReceiverTags.Tag tag : tags) {
                out.write(tag.receiverId());
                out.write(tag.tag());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Tagged decodeTagged(byte[] encoded) {
        return decoding("tagged command", () -> {
            DataInputStream in = body(encoded, TAGGED);
            byte[] command = readMessageBytes(in);
            if (kind(command) != FORMAT_VERSION) {
                throw new IllegalArgumentException("tags on a message of kind " + kind(command));
            }
            long count = readVarLong(in);
            if (count < 0 || count > in.available() || count * (ReceiverTags.ID_BYTES + ReceiverTags.TAG_BYTES) != in.available()) {
                throw new IllegalArgumentException(count + " tags in " + in.available() + " bytes");
            }
            List<ReceiverTags.Tag> tags = new ArrayList<>((int) count);
            for (long i = 0; i < count; i++) {
                byte[] receiverId = new byte[ReceiverTags.ID_BYTES];
                byte[] tag = new byte[ReceiverTags.TAG_BYTES];
                in.readFully(receiverId);
                in.readFully(tag);
                tags.add(new ReceiverTags.Tag(receiverId, tag));
            }
            return new Tagged(command, tags);
        });
    }

    /** What a decoder does with the message's bytes; may throw anything a malformed message causes. */
    private interface Decoder<T> {
        T decode() throws IOException;
    }

    /** Runs a decoder and turns every failure a malformed message can cause into the one typed error. */
    private static <T> T decoding(String what, Decoder<T> decoder) {
        try {
            return decoder.decode();
        } catch (IOException e) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "truncated replication " + what, e);
        } catch (RuntimeException e) {
            // unknown kinds and tags, implausible lengths, trailing bytes, values Command, CommandId and Operation refuse
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "malformed replication " + what + ": " + e.getMessage(), e);
        }
    }

    private static DataInputStream body(byte[] encoded, int kind) {
        if (kind(encoded) != kind) {
            throw new IllegalArgumentException("not a message of kind " + kind);
        }
        return new DataInputStream(new ByteArrayInputStream(encoded, 1, encoded.length - 1));
    }

    private static void requireEnd(DataInputStream in, String what) throws IOException {
        if (in.available() != 0) {
            throw new IllegalArgumentException(in.available() + " trailing bytes after " + what);
        }
    }

    private static void writeOperation(DataOutput out, Operation operation) throws IOException {
        if (operation instanceof Operation.PutIfNewer put) {
            out.writeByte(put.terminal() ? PUT_TERMINAL : PUT_IF_NEWER);
            writeString(out, put.key());
            writeVarLong(out, put.version());
            Map<String, String> sorted = new TreeMap<>(put.fields());
            writeVarLong(out, sorted.size());
            for (Map.Entry<String, String> field : sorted.entrySet()) {
                writeString(out, field.getKey());
                writeString(out, field.getValue());
            }
        } else if (operation instanceof Operation.DeleteIfNewer delete) {
            out.writeByte(DELETE_IF_NEWER);
            writeString(out, delete.key());
            writeVarLong(out, delete.version());
        } else if (operation instanceof Operation.SetAdd add) {
            out.writeByte(SET_ADD);
            writeString(out, add.key());
            writeString(out, add.member());
        } else if (operation instanceof Operation.SetRemove remove) {
            out.writeByte(SET_REMOVE);
            writeString(out, remove.key());
            writeString(out, remove.member());
        } else if (operation instanceof Operation.Put put) {
            out.writeByte(PUT);
            writeString(out, put.key());
            writeString(out, put.value());
        } else if (operation instanceof Operation.PutPointerIfNewer pointer) {
            out.writeByte(PUT_POINTER);
            writeString(out, pointer.key());
            writeVarLong(out, pointer.version());
            writeString(out, pointer.field());
            writeString(out, pointer.value());
            writeString(out, pointer.targetPrefix());
            writeString(out, pointer.statusField());
            writeString(out, pointer.supersededStatus());
        } else {
            throw new IllegalArgumentException("unknown operation " + operation);
        }
    }

    private static Operation readOperation(DataInputStream in) throws IOException {
        int tag = in.readUnsignedByte();
        String key = readMessageString(in);
        return switch (tag) {
            case PUT_IF_NEWER, PUT_TERMINAL -> {
                long version = readVarLong(in);
                int count = readMessageCount(in);
                Map<String, String> fields = new HashMap<>(Math.min(count, 64) * 2);
                for (int i = 0; i < count; i++) {
                    fields.put(readMessageString(in), readMessageString(in));
                }
                yield new Operation.PutIfNewer(key, version, fields, tag == PUT_TERMINAL);
            }
            case DELETE_IF_NEWER -> new Operation.DeleteIfNewer(key, readVarLong(in));
            case SET_ADD -> new Operation.SetAdd(key, readMessageString(in));
            case SET_REMOVE -> new Operation.SetRemove(key, readMessageString(in));
            case PUT -> new Operation.Put(key, readMessageString(in));
            case PUT_POINTER -> new Operation.PutPointerIfNewer(key, readVarLong(in), readMessageString(in), readMessageString(in),
                    readMessageString(in), readMessageString(in), readMessageString(in));
            default -> throw new IllegalArgumentException("unknown operation tag " + tag);
        };
    }

    static void writeString(DataOutput out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        writeVarLong(out, utf8.length);
        out.write(utf8);
    }

    static void writeVarLong(DataOutput out, long value) throws IOException {
        long rest = value;
        while ((rest & ~0x7FL) != 0) {
            out.writeByte((int) ((rest & 0x7F) | 0x80));
            rest >>>= 7;
        }
        out.writeByte((int) rest);
    }

    static long readVarLong(DataInput in) throws IOException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("varint longer than 64 bits");
    }

    /**
     * Reads a length or a count in a message and refuses one above the bytes left in it (every element
     * of what it counts takes at least one byte), so that nothing is allocated for more than is there.
     * {@code in} reads a byte array, whose {@code available()} is exactly what is left.
     */
    private static int readMessageCount(DataInputStream in) throws IOException {
        long count = readVarLong(in);
        if (count < 0 || count > in.available()) {
            throw new IllegalArgumentException("length " + count + " exceeds the " + in.available() + " bytes left");
        }
        return (int) count;
    }

    private static String readMessageString(DataInputStream in) throws IOException {
        return new String(readMessageBytes(in), StandardCharsets.UTF_8);
    }

    private static byte[] readMessageBytes(DataInputStream in) throws IOException {
        byte[] value = new byte[readMessageCount(in)];
        in.readFully(value);
        return value;
    }

    /** Longest origin certificate a signed command may carry (ours are about 400 bytes). */
    static final int MAX_CERTIFICATE_BYTES = 4096;
}
