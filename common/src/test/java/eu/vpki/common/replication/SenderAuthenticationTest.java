package eu.vpki.common.replication;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.DeploymentCa;
import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Sealing and opening the messages a member sends besides commands ({@link SenderAuthentication}) without a group. */
class SenderAuthenticationTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] PASSWORD = "pw".toCharArray();
    private static final Instant ISSUED = Instant.parse("2026-11-01T00:00:00Z");
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-24T12:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;
    private final Address a0 = UUID.randomUUID();
    private final Address a1 = UUID.randomUUID();
    private OriginCredentials ea0;
    private OriginCredentials ea1;
    private SenderAuthentication receiver;

    @BeforeEach
    void issue() {
        DeploymentCa ca = DeploymentCa.generate("test CA", ISSUED, Duration.ofDays(365), RANDOM);
        ca.writeTrustStore(dir.resolve("trust.p12"), PASSWORD);
        for (String id : List.of("ea-0", "ea-1", "ea-2")) {
            ca.issueKeyStore(id, ISSUED, Duration.ofDays(30), RANDOM, dir.resolve(id + ".p12"), PASSWORD);
        }
        ea0 = TestCluster.credentials(tls("ea-0"));
        ea1 = TestCluster.credentials(tls("ea-1"));
        receiver = new SenderAuthentication(TestCluster.credentials(tls("ea-2")), "ea-2", CLOCK);
        receiver.start(UUID.randomUUID());
    }

    private ReplicationConfig.Tls tls(String keyStore) {
        return ReplicationConfig.Tls.of(dir.resolve(keyStore + ".p12"), "pw", dir.resolve("trust.p12"), "pw");
    }

    /** A member that signs with {@code credentials}, claims to be {@code replicaId} and sends from {@code address}. */
    private static SenderAuthentication sender(OriginCredentials credentials, String replicaId, Address address, Clock clock) {
        SenderAuthentication sender = new SenderAuthentication(credentials, replicaId, clock);
        sender.start(address);
        return sender;
    }

    private static byte[] report(String replicaId) {
        return CommandCodec.encodeReport(new AppliedReport(replicaId, replicaId + "~mi3k2x1c", true, Map.of("ea-0~mi3k2x1c", 5L),
                Map.of(), 42, Map.of()));
    }

    @Test
    void aSealedMessage_opensAtTheReceiver_withItsSigner() {
        byte[] report = report("ea-0");
        byte[] sealed = sender(ea0, "ea-0", a0, CLOCK).seal(report);
        assertThat(CommandCodec.kind(sealed)).isEqualTo(CommandCodec.SEALED);

        SenderAuthentication.Opened opened = receiver.open(sealed, a0);
        assertThat(opened.sender()).isEqualTo("ea-0");
        assertThat(opened.message()).isEqualTo(report);
        byte[] answer = CommandCodec.encodeAppliedAnswer(new CommandCodec.AppliedAnswer(new CommandId("ea-1~mi3k2x1c", 9), true));
        assertThat(CommandCodec.decodeAppliedAnswer(receiver.open(sender(ea0, "ea-0", a0, CLOCK).seal(answer), a0).message()))
                .isEqualTo(new CommandCodec.AppliedAnswer(new CommandId("ea-1~mi3k2x1c", 9), true));
    }

    @Test
    void aMessageThatIsNotSealed_isRefused() {
        assertThatThrownBy(() -> receiver.open(report("ea-0"), a0)).isInstanceOf(SenderAuthentication.Refused.class)
                .hasMessageContaining("not signed by its sender");
    }

    @Test
    void aMemberWithEa0sKey_cannotSealAsEa1() {
        byte[] forged = sender(ea0, "ea-1", a1, CLOCK).seal(report("ea-1"));
        assertThatThrownBy(() -> receiver.open(forged, a1)).isInstanceOf(SenderAuthentication.Refused.class)
                .hasMessageContaining("claims to come from ea-1").hasMessageContaining("certificate of replica ea-0");
    }

    @Test
    void aSealedMessage_sentFromAnotherAddress_isRefused() {
        byte[] sealed = sender(ea0, "ea-0", a0, CLOCK).seal(report("ea-0"));
        assertThatThrownBy(() -> receiver.open(sealed, a1)).isInstanceOf(SenderAuthentication.Refused.class)
                .hasMessageContaining("for another address than");
    }

    @Test
    void anAddress_speaksForOneReplica_untilItLeavesTheView() {
        receiver.open(sender(ea0, "ea-0", a0, CLOCK).seal(report("ea-0")), a0);
        byte[] fromTheSameAddress = sender(ea1, "ea-1", a0, CLOCK).seal(report("ea-1"));
        assertThatThrownBy(() -> receiver.open(fromTheSameAddress, a0)).isInstanceOf(SenderAuthentication.Refused.class)
                .hasMessageContaining("where ea-0 signed before");

        receiver.viewChanged(View.create(a1, 2, a1));
        assertThat(receiver.open(fromTheSameAddress, a0).sender()).isEqualTo("ea-1");
    }

    @Test
    void aTamperedOrFarFromNowMessage_isRefused() {
        byte[] sealed = sender(ea0, "ea-0", a0, CLOCK).seal(report("ea-0"));
        byte[] tampered = sealed.clone();
        tampered[5] ^= 1; // inside the report: the replica id's first byte
        assertThatThrownBy(() -> receiver.open(tampered, a0)).isInstanceOf(SenderAuthentication.Refused.class)
                .hasMessageContaining("does not verify");

        Clock later = Clock.offset(CLOCK, SenderAuthentication.MAX_SKEW.plusSeconds(1));
        byte[] late = sender(ea0, "ea-0", a0, later).seal(report("ea-0"));
        assertThatThrownBy(() -> receiver.open(late, a0)).isInstanceOf(SenderAuthentication.Refused.class)
                .hasMessageContaining("away from this replica's clock");
        assertThatThrownBy(() -> receiver.open(new byte[]{(byte) CommandCodec.SEALED, 1, 2}, a0)).isInstanceOf(PkiException.class);
    }

    @Test
    void withoutCredentials_nothingIsSealedOrChecked() {
        SenderAuthentication plain = new SenderAuthentication(null, "ea-0", CLOCK);
        byte[] report = report("ea-0");
        assertThat(plain.seal(report)).isSameAs(report);
        assertThat(plain.open(report, a0).message()).isSameAs(report);
        assertThat(plain.enabled()).isFalse();
    }
}
