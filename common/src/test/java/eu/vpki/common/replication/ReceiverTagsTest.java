package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.DeploymentCa;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Per-receiver tags beside the origin signatures ({@link ReceiverTags}, {@link OriginAuthentication#refusal(Command,
 * byte[], byte[])}) without a group: three replicas ea-0, ea-1, ea-2 of one deployment CA, each counting its ECDSA
 * verifications of commands and its key agreements. A valid tag is accepted without a verification; anything else
 * (no tag, a wrong one, one for another receiver or under another pair's key, a changed command under a valid tag)
 * falls back to the signature, which decides as it always did.
 */
class ReceiverTagsTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] PASSWORD = "pw".toCharArray();
    private static final Instant ISSUED = Instant.parse("2026-11-01T00:00:00Z");
    private static final long NOW = Instant.parse("2026-11-24T12:00:00Z").toEpochMilli();

    @TempDir
    Path dir;
    private DeploymentCa ca;
    private final Map<String, CountingCredentials> credentials = new java.util.HashMap<>();
    private OriginAuthentication a;
    private OriginAuthentication b;
    private OriginAuthentication c;

    @BeforeEach
    void issue() {
        ca = DeploymentCa.generate("test CA", ISSUED, Duration.ofDays(365), RANDOM);
        ca.writeTrustStore(dir.resolve("trust.p12"), PASSWORD);
        a = replica("ea-0", "ea-0");
        b = replica("ea-1", "ea-1");
        c = replica("ea-2", "ea-2");
    }

    /** A replica with a fresh key store {@code name} for {@code replicaId}. */
    private OriginAuthentication replica(String replicaId, String name) {
        ca.issueKeyStore(replicaId, ISSUED, Duration.ofDays(30), RANDOM, dir.resolve(name + ".p12"), PASSWORD);
        CountingCredentials counting = new CountingCredentials(
                TestCluster.credentials(ReplicationConfig.Tls.of(dir.resolve(name + ".p12"), "pw",
                        dir.resolve("trust.p12"), "pw")));
        credentials.put(name, counting);
        return OriginAuthentication.of(counting, replicaId);
    }

    private static Command command(String origin, long seq, long millis) {
        return new Command(new CommandId(origin, seq), millis, List.of(new Operation.Put("t:idx:k", "v"),
                new Operation.PutIfNewer("t:rec:r", 3, Map.of("b", "2", "a", "1"), false)));
    }

    private byte[] certificate(String name) {
        return credentials.get(name).certificate();
    }

    /** What {@code receiver} decides on {@code wire} (a command, tagged or not), as a membership does. */
    private static String decide(OriginAuthentication receiver, byte[] wire) {
        byte[] received = wire;
        byte[] tag = null;
        if (CommandCodec.kind(wire) == CommandCodec.TAGGED) {
            CommandCodec.Tagged tagged = CommandCodec.decodeTagged(wire);
            received = tagged.command();
            tag = tagged.tagFor(receiver.tagId());
        }
        return receiver.refusal(CommandCodec.decode(received), received, tag);
    }

    private int verifications(String name) {
        return credentials.get(name).verifications();
    }

    @Test
    void aValidTag_isAcceptedWithoutVerifyingTheSignature_byEachReceiver() {
        byte[] encoded = CommandCodec.encode(a.sign(command("ea-0~mi3k2x1c", 1, NOW)));
        byte[] wire = a.tagged(encoded, List.of(certificate("ea-1"), certificate("ea-2")));
        assertThat(CommandCodec.kind(wire)).isEqualTo(CommandCodec.TAGGED);
        assertThat(CommandCodec.decodeTagged(wire).tags()).hasSize(2);
        assertThat(CommandCodec.decodeTagged(wire).command()).isEqualTo(encoded);
        assertThat(decide(b, wire)).isNull();
        assertThat(decide(c, wire)).isNull();
        assertThat(verifications("ea-1")).isZero();
        assertThat(verifications("ea-2")).isZero();
    }

    @Test
    void theKeyOfAPair_isAgreedOnce_andOnlyWithATrustedCertificate() {
        for (long seq = 1; seq <= 10; seq++) {
            byte[] wire = a.tagged(CommandCodec.encode(a.sign(command("ea-0~mi3k2x1c", seq, NOW))), List.of(certificate("ea-1")));
            assertThat(decide(b, wire)).isNull();
        }
        assertThat(credentials.get("ea-0").agreements().get()).as("ea-0's agreements").isEqualTo(1);
        assertThat(credentials.get("ea-1").agreements().get()).as("ea-1's agreements").isEqualTo(1);
        assertThat(verifications("ea-1")).isZero();

        DeploymentCa other = DeploymentCa.generate("test CA", ISSUED, Duration.ofDays(365), RANDOM); // same name, other key
        other.issueKeyStore("ea-1", ISSUED, Duration.ofDays(30), RANDOM, dir.resolve("foreign.p12"), PASSWORD);
        other.writeTrustStore(dir.resolve("foreign-trust.p12"), PASSWORD);
        byte[] foreign = TestCluster.credentials(ReplicationConfig.Tls.of(dir.resolve("foreign.p12"), "pw",
                dir.resolve("foreign-trust.p12"), "pw")).certificate();
        byte[] encoded = CommandCodec.encode(a.sign(command("ea-0~mi3k2x1c", 11, NOW)));
        assertThat(credentials.get("ea-0").agree(foreign)).as("ECDH with an untrusted certificate").isNull();
        assertThat(a.tagged(encoded, List.of(foreign))).as("no tag for an untrusted certificate").isEqualTo(encoded);
        assertThat(credentials.get("ea-0").agree(new byte[]{0x30, 0x03, 1, 2, 3})).isNull();
        assertThat(a.tagged(encoded, List.of())).isEqualTo(encoded);
        assertThat(a.tagged(encoded, List.of(certificate("ea-0")))).as("no tag for itself").isEqualTo(encoded);
        assertThat(OriginAuthentication.NONE.tagged(encoded, List.of(certificate("ea-1")))).isEqualTo(encoded);
    }

    @Test
    void noTagForThisReceiver_orNone_fallsBackToTheSignature() {
        byte[] encoded = CommandCodec.encode(a.sign(command("ea-0~mi3k2x1c", 1, NOW)));
        assertThat(decide(b, a.tagged(encoded, List.of(certificate("ea-2"))))).isNull();
        assertThat(verifications("ea-1")).isEqualTo(1);
        assertThat(decide(b, encoded)).isNull();
        assertThat(verifications("ea-1")).isEqualTo(2);
    }

    @Test
    void aWrongTag_orOneForAnotherReceiver_fallsBackToTheSignature() {
        byte[] encoded = CommandCodec.encode(a.sign(command("ea-0~mi3k2x1c", 1, NOW)));
        CommandCodec.Tagged tagged = CommandCodec.decodeTagged(a.tagged(encoded, List.of(certificate("ea-1"), certificate("ea-2"))));
        byte[] forB = tagged.tagFor(b.tagId());
        byte[] forC = tagged.tagFor(c.tagId());
        byte[] flipped = forB.clone();
        flipped[17] ^= 1;
        Command command = CommandCodec.decode(encoded);
        assertThat(b.refusal(command, encoded, flipped)).isNull();
        assertThat(verifications("ea-1")).as("a wrong tag").isEqualTo(1);
        assertThat(b.refusal(command, encoded, forC)).isNull();
        assertThat(verifications("ea-1")).as("ea-2's tag").isEqualTo(2);
        // ea-2's tag under ea-1's receiver id: the same
        byte[] relabelled = CommandCodec.encodeTagged(encoded, List.of(new ReceiverTags.Tag(b.tagId(), forC)));
        assertThat(decide(b, relabelled)).isNull();
        assertThat(verifications("ea-1")).as("ea-2's tag as ea-1's").isEqualTo(3);
        assertThat(b.refusal(command, encoded, forB)).isNull();
        assertThat(verifications("ea-1")).as("its own tag").isEqualTo(3);
    }

    @Test
    void aChangedCommandUnderAValidTag_isRefusedByTheSignature() {
        Command signed = a.sign(command("ea-0~mi3k2x1c", 1, NOW));
        byte[] encoded = CommandCodec.encode(signed);
        byte[] tag = CommandCodec.decodeTagged(a.tagged(encoded, List.of(certificate("ea-1")))).tagFor(b.tagId());
        Command changed = new Command(signed.id(), NOW, List.of(new Operation.Put("t:idx:k", "other")), signed.signature());
        byte[] changedBytes = CommandCodec.encode(changed);
        assertThat(b.refusal(changed, changedBytes, tag)).isEqualTo("its signature by ea-0 does not verify");
        assertThat(verifications("ea-1")).isEqualTo(1);
        // the tag covers the signature too: another (valid) signature of the same command under the old tag
        Command resigned = a.sign(command("ea-0~mi3k2x1c", 1, NOW));
        byte[] resignedBytes = CommandCodec.encode(resigned);
        assertThat(resignedBytes).isNotEqualTo(encoded);
        assertThat(b.refusal(resigned, resignedBytes, tag)).isNull();
        assertThat(verifications("ea-1")).as("verified, not taken by the tag").isEqualTo(2);
    }

    @Test
    void aTagUnderAnotherPairsKey_doesNotMakeAForgeryPass() {
        // ea-2 forges a command of ea-0's origin with ea-0's certificate (its signature cannot be ea-0's) and tags it
        // for ea-1 with its own keys: the tag is checked under the key of ea-0 and ea-1, and the signature refuses it
        Command genuine = a.sign(command("ea-0~mi3k2x1c", 1, NOW));
        Command forged = new Command(genuine.id(), NOW, List.of(new Operation.Put("t:idx:k", "forged")),
                new OriginSignature(genuine.signature().certificate(), c.sign(command("ea-2~mi3k2x1c", 1, NOW)).signature().signature()));
        byte[] forgedBytes = CommandCodec.encode(forged);
        assertThat(decide(b, c.tagged(forgedBytes, List.of(certificate("ea-1"))))).isEqualTo("its signature by ea-0 does not verify");
        assertThat(verifications("ea-1")).isEqualTo(1);
        // the same with ea-2's own certificate in it: not the origin's replica
        Command withOwn = c.sign(new Command(genuine.id(), NOW, forged.operations()));
        assertThat(decide(b, c.tagged(CommandCodec.encode(withOwn), List.of(certificate("ea-1")))))
                .isEqualTo("signed with the certificate of replica ea-2, not of its origin's replica ea-0");
        // ea-2's genuine command, tagged for ea-1: accepted by its tag
        int before = verifications("ea-1");
        assertThat(decide(b, c.tagged(CommandCodec.encode(c.sign(command("ea-2~mi3k2x1c", 1, NOW))), List.of(certificate("ea-1")))))
                .isNull();
        assertThat(verifications("ea-1")).isEqualTo(before);
    }

    @Test
    void aCertificateNotValidAtTheOriginTime_isRefusedDespiteAValidTag() {
        long expired = ISSUED.plus(Duration.ofDays(31)).toEpochMilli();
        byte[] wire = a.tagged(CommandCodec.encode(a.sign(command("ea-0~mi3k2x1c", 1, expired))), List.of(certificate("ea-1")));
        assertThat(decide(b, wire)).contains("was not valid at the command's origin time");
    }

    @Test
    void anUnsignedCommandWithATag_isRefused() {
        Command unsigned = command("ea-0~mi3k2x1c", 1, NOW);
        byte[] encoded = CommandCodec.encode(unsigned);
        byte[] wire = a.tagged(encoded, List.of(certificate("ea-1")));
        assertThat(decide(b, wire)).isEqualTo("not signed by its origin");
    }

    @Test
    void rotatedCertificates_getKeysOfTheirOwn_andAnOriginWithTheOldOneFallsBackToTheSignature() {
        byte[] oldB = certificate("ea-1");
        // ea-0 gets a new key store (same replica id): ea-1 accepts the tags of both certificates
        OriginAuthentication rotatedA = replica("ea-0", "ea-0-rotated");
        for (OriginAuthentication origin : List.of(a, rotatedA)) {
            byte[] wire = origin.tagged(CommandCodec.encode(origin.sign(command("ea-0~mi3k2x1c", 1, NOW))), List.of(oldB));
            assertThat(decide(b, wire)).isNull();
        }
        assertThat(verifications("ea-1")).isZero();
        assertThat(credentials.get("ea-1").agreements().get()).as("a key per certificate").isEqualTo(2);
        // ea-1 restarts with a new key store: a tag for its old certificate is not for it, the signature decides
        OriginAuthentication rotatedB = replica("ea-1", "ea-1-rotated");
        assertThat(rotatedB.tagId()).isNotEqualTo(b.tagId());
        byte[] wire = a.tagged(CommandCodec.encode(a.sign(command("ea-0~mi3k2x1c", 2, NOW))), List.of(oldB));
        assertThat(decide(rotatedB, wire)).isNull();
        assertThat(verifications("ea-1-rotated")).isEqualTo(1);
        // once ea-0 knows the new certificate, its tag is accepted
        byte[] tagged = a.tagged(CommandCodec.encode(a.sign(command("ea-0~mi3k2x1c", 3, NOW))), List.of(oldB, certificate("ea-1-rotated")));
        assertThat(decide(rotatedB, tagged)).isNull();
        assertThat(verifications("ea-1-rotated")).isEqualTo(1);
    }

    @Test
    void keysAreDirectional_andBoundToBothCertificates() {
        byte[] encoded = CommandCodec.encode(a.sign(command("ea-0~mi3k2x1c", 1, NOW)));
        byte[] aToB = CommandCodec.decodeTagged(a.tagged(encoded, List.of(certificate("ea-1")))).tagFor(b.tagId());
        // ea-1's tag for ea-0 over the same bytes (the same ECDH secret, the other direction)
        byte[] bToA = CommandCodec.decodeTagged(b.tagged(encoded, List.of(certificate("ea-0")))).tagFor(a.tagId());
        assertThat(bToA).isNotEqualTo(aToB);
        assertThat(b.refusal(CommandCodec.decode(encoded), encoded, bToA)).isNull();
        assertThat(verifications("ea-1")).as("the reverse direction's tag is not accepted").isEqualTo(1);
    }

    @Test
    void hkdf_matchesRfc5869() {
        // RFC 5869 test case 3 (SHA-256, no salt, no info): the first 32 bytes of its OKM
        byte[] ikm = new byte[22];
        Arrays.fill(ikm, (byte) 0x0b);
        assertThat(HexFormat.of().formatHex(ReceiverTags.hkdf(ikm, new byte[0])))
                .isEqualTo("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d");
    }

    @Test
    void malformedTaggedCommands_areRefusedAsMalformed() {
        byte[] encoded = CommandCodec.encode(a.sign(command("ea-0~mi3k2x1c", 1, NOW)));
        byte[] wire = a.tagged(encoded, List.of(certificate("ea-1")));
        List<byte[]> malformed = new ArrayList<>();
        malformed.add(Arrays.copyOf(wire, wire.length - 1)); // truncated tag
        malformed.add(Arrays.copyOf(wire, wire.length + 1)); // a trailing byte
        malformed.add(CommandCodec.encodeTagged(CommandCodec.encodePull(new CommandCodec.Pull("ea-0~mi3k2x1c", 1, 2)), List.of()));
        byte[] hugeCount = wire.clone();
        hugeCount[hugeCount.length - (ReceiverTags.ID_BYTES + ReceiverTags.TAG_BYTES) - 1] = 0x7F;
        malformed.add(hugeCount);
        for (byte[] bytes : malformed) {
            assertThatThrownBy(() -> CommandCodec.decodeTagged(bytes)).isInstanceOf(PkiException.class)
                    .satisfies(e -> assertThat(((PkiException) e).code()).isEqualTo(ErrorCode.MALFORMED_ENCODING));
        }
    }
}
