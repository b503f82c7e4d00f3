package eu.vpki.common.replication;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which delivered commands a membership takes as its own without verifying its signature ({@link SentCommands}). */
class SentCommandsTest {
    private static final String ORIGIN = "ea-0~mi3k2x1c";

    private static Command command(String origin, long seq, String value) {
        return new Command(new CommandId(origin, seq), 1_000L, List.of(new Operation.Put("t:idx:k", value)));
    }

    private static byte[] encoded(Command command) {
        return CommandCodec.encode(command);
    }

    @Test
    void aCommandSent_comesBackOnce_byteForByte() {
        SentCommands sent = new SentCommands(ORIGIN);
        Command command = command(ORIGIN, 1, "v");
        sent.sent(command.id(), encoded(command));
        assertThat(sent.cameBack(command, encoded(command))).isTrue();
        assertThat(sent.cameBack(command, encoded(command))).as("a second delivery is checked in full").isFalse();
    }

    @Test
    void otherBytesUnderASentId_areNotTakenAsOwn_andTheGenuineOneStillIs() {
        SentCommands sent = new SentCommands(ORIGIN);
        Command command = command(ORIGIN, 5, "v");
        sent.sent(command.id(), encoded(command));
        Command forged = command(ORIGIN, 5, "forged");
        assertThat(sent.cameBack(forged, encoded(forged))).isFalse();
        byte[] flipped = encoded(command);
        flipped[flipped.length - 1] ^= 1;
        assertThat(sent.cameBack(command, flipped)).isFalse();
        assertThat(sent.cameBack(command, encoded(command))).isTrue();
    }

    @Test
    void anotherOrigin_orASequenceNumberNotSent_isNotTakenAsOwn() {
        SentCommands sent = new SentCommands(ORIGIN);
        Command command = command(ORIGIN, 7, "v");
        sent.sent(command.id(), encoded(command));
        Command otherIncarnation = command("ea-0~mi3k2x1d", 7, "v");
        assertThat(sent.cameBack(otherIncarnation, encoded(otherIncarnation))).isFalse();
        Command notSent = command(ORIGIN, 8, "v");
        assertThat(sent.cameBack(notSent, encoded(notSent))).isFalse();
        Command sameSlot = command(ORIGIN, 7 + SentCommands.CAPACITY, "v");
        assertThat(sent.cameBack(sameSlot, encoded(sameSlot))).isFalse();
        assertThatThrownBy(() -> sent.sent(otherIncarnation.id(), encoded(otherIncarnation)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCommandOverwrittenByOneCapacityLater_isNoLongerTakenAsOwn() {
        SentCommands sent = new SentCommands(ORIGIN);
        Command first = command(ORIGIN, 3, "v");
        Command later = command(ORIGIN, 3 + SentCommands.CAPACITY, "v");
        sent.sent(first.id(), encoded(first));
        sent.sent(later.id(), encoded(later));
        assertThat(sent.cameBack(first, encoded(first))).isFalse();
        assertThat(sent.cameBack(later, encoded(later))).isTrue();
    }
}
