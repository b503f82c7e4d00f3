package eu.vpki.common.replication;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Binary form of a {@link Command} on the wire. Format version 1:
 * <pre>
 * u8 format (=1) | str origin | varlong seq | i64 originMillis | varint opCount | op*
 * op: u8 tag | str key | body
 *   1 PutIfNewer    varlong version | varint n | (str field | str value)*n  (fields sorted)
 *   2 DeleteIfNewer varlong version
 *   3 SetAdd        str member
 *   4 SetRemove     str member
 *   5 Put           str value
 * str = varint byteLength | UTF-8;  varint/varlong = unsigned LEB128
 * </pre>
 * A reader rejects unknown format versions and tags, so a newer writer fails loudly, never silently.
 *
 * <p>The second message kind, an applied-query (SYNC confirmation, phase 2), starts with byte
 * {@value #APPLIED_QUERY}: {@code u8 0x51 | str origin | varlong seq}.
 *
 * <p>The third, a redelivery (a departed origin's last commands, sent again by a survivor), starts
 * with byte {@value #REDELIVERY}: {@code u8 0x52 | varint count | (varint length | command)*count}, the
 * commands in the format above, ascending by sequence number.
 */
public final class CommandCodec {

    static final int FORMAT_VERSION = 1;
    static final int APPLIED_QUERY = 0x51;
    static final int REDELIVERY = 0x52;
    private static final int PUT_IF_NEWER = 1;
    private static final int DELETE_IF_NEWER = 2;
    private static final int SET_ADD = 3;
    private static final int SET_REMOVE = 4;
    private static final int PUT = 5;

    private CommandCodec() {
    }

    public static byte[] encode(Command command) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT_VERSION);
            writeString(out, command.id().origin());
            writeVarLong(out, command.id().seq());
            out.writeLong(command.originMillis());
            writeVarLong(out, command.operations().size());
            for (Operation operation : command.operations()) {
                writeOperation(out, operation);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static Command decode(byte[] encoded) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
            int format = in.readUnsignedByte();
            if (format != FORMAT_VERSION) {
                throw new IllegalArgumentException("unknown command format " + format);
            }
            CommandId id = new CommandId(readString(in), readVarLong(in));
            long originMillis = in.readLong();
            int count = readCount(in);
            List<Operation> operations = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                operations.add(readOperation(in));
            }
            if (in.available() != 0) {
                throw new IllegalArgumentException(in.available() + " trailing bytes after command " + id);
            }
            return new Command(id, originMillis, operations);
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated command", e);
        }
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

    static boolean isAppliedQuery(byte[] encoded) {
        return encoded.length > 0 && (encoded[0] & 0xFF) == APPLIED_QUERY;
    }

    static CommandId decodeAppliedQuery(byte[] encoded) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded, 1, encoded.length - 1));
            return new CommandId(readString(in), readVarLong(in));
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated applied-query", e);
        }
    }

    static byte[] encodeRedelivery(List<byte[]> commands) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + commands.stream().mapToInt(c -> c.length + 4).sum());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(REDELIVERY);
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

    static boolean isRedelivery(byte[] encoded) {
        return encoded.length > 0 && (encoded[0] & 0xFF) == REDELIVERY;
    }

    static List<Command> decodeRedelivery(byte[] encoded) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded, 1, encoded.length - 1));
            int count = readCount(in);
            List<Command> commands = new ArrayList<>(Math.min(count, 1_024));
            for (int i = 0; i < count; i++) {
                byte[] command = new byte[readCount(in)];
                in.readFully(command);
                commands.add(decode(command));
            }
            if (in.available() != 0) {
                throw new IllegalArgumentException(in.available() + " trailing bytes after a redelivery");
            }
            return commands;
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated redelivery", e);
        }
    }

    private static void writeOperation(DataOutput out, Operation operation) throws IOException {
        if (operation instanceof Operation.PutIfNewer put) {
            out.writeByte(PUT_IF_NEWER);
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
        } else {
            throw new IllegalArgumentException("unknown operation " + operation);
        }
    }

    private static Operation readOperation(DataInput in) throws IOException {
        int tag = in.readUnsignedByte();
        String key = readString(in);
        return switch (tag) {
            case PUT_IF_NEWER -> {
                long version = readVarLong(in);
                int count = readCount(in);
                Map<String, String> fields = new HashMap<>(count * 2);
                for (int i = 0; i < count; i++) {
                    fields.put(readString(in), readString(in));
                }
                yield new Operation.PutIfNewer(key, version, fields);
            }
            case DELETE_IF_NEWER -> new Operation.DeleteIfNewer(key, readVarLong(in));
            case SET_ADD -> new Operation.SetAdd(key, readString(in));
            case SET_REMOVE -> new Operation.SetRemove(key, readString(in));
            case PUT -> new Operation.Put(key, readString(in));
            default -> throw new IllegalArgumentException("unknown operation tag " + tag);
        };
    }

    static void writeString(DataOutput out, String value) throws IOException {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        writeVarLong(out, utf8.length);
        out.write(utf8);
    }

    static String readString(DataInput in) throws IOException {
        byte[] utf8 = new byte[readCount(in)];
        in.readFully(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
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

    static int readCount(DataInput in) throws IOException {
        long count = readVarLong(in);
        if (count < 0 || count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("implausible length " + count);
        }
        return (int) count;
    }
}
