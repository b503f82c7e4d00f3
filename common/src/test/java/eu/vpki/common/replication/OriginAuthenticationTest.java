package eu.vpki.common.replication;

import eu.vpki.common.etsi.crypto.DeploymentCa;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Signing and checking command origins ({@link OriginAuthentication}) without a group. */
class OriginAuthenticationTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] PASSWORD = "pw".toCharArray();
    private static final Instant ISSUED = Instant.parse("2026-11-01T00:00:00Z");
    private static final long NOW = Instant.parse("2026-11-24T12:00:00Z").toEpochMilli();

    @TempDir
    Path dir;
    private OriginAuthentication a;
    private OriginAuthentication b;

    @BeforeEach
    void issue() {
        DeploymentCa ca = DeploymentCa.generate("test CA", ISSUED, Duration.ofDays(365), RANDOM);
        ca.writeTrustStore(dir.resolve("trust.p12"), PASSWORD);
        ca.issueKeyStore("ea-0", ISSUED, Duration.ofDays(30), RANDOM, dir.resolve("ea-0.p12"), PASSWORD);
        ca.issueKeyStore("ea-1", ISSUED, Duration.ofDays(30), RANDOM, dir.resolve("ea-1.p12"), PASSWORD);
        a = OriginAuthentication.of(TestCluster.credentials(tls("ea-0")), "ea-0");
        b = OriginAuthentication.of(TestCluster.credentials(tls("ea-1")), "ea-1");
    }

    private ReplicationConfig.Tls tls(String keyStore) {
        return ReplicationConfig.Tls.of(dir.resolve(keyStore + ".p12"), "pw", dir.resolve("trust.p12"), "pw");
    }

    private static Command command(String origin, long millis) {
        return new Command(new CommandId(origin, 7), millis, List.of(new Operation.Put("t:idx:k", "v"),
                new Operation.PutIfNewer("t:rec:r", 3, java.util.Map.of("b", "2", "a", "1"), false)));
    }

    @Test
    void aSignedCommand_isAcceptedByEveryReplica_andSurvivesTheWireAndTheLog() {
        Command signed = a.sign(command("ea-0~mi3k2x1c", NOW));
        assertThat(a.refusal(signed)).isNull();
        assertThat(b.refusal(signed)).isNull();
        Command decoded = CommandCodec.decode(CommandCodec.encode(signed));
        assertThat(decoded).isEqualTo(signed);
        assertThat(b.refusal(decoded)).isNull();
        assertThat(b.refusal(CommandCodec.decodeCommands(CommandCodec.encodeCommands(List.of(CommandCodec.encode(signed)))).get(0)))
                .isNull();
    }

    @Test
    void aCommandOfAnotherReplicasOrigin_isRefused() {
        assertThat(b.refusal(a.sign(command("ea-1~mi3k2x1c", NOW))))
                .isEqualTo("signed with the certificate of replica ea-0, not of its origin's replica ea-1");
        assertThat(b.refusal(a.sign(command("ea-1", NOW)))).contains("not of its origin's replica ea-1");
    }

    @Test
    void anUnsignedCommand_isRefusedWithTls_andAcceptedWithout() {
        assertThat(b.refusal(command("ea-0~mi3k2x1c", NOW))).isEqualTo("not signed by its origin");
        assertThat(OriginAuthentication.NONE.refusal(command("ea-0~mi3k2x1c", NOW))).isNull();
        assertThat(OriginAuthentication.NONE.sign(command("ea-0", NOW)).signature()).isNull();
    }

    @Test
    void anotherReplicasCertificateWithThisSignature_orChangedOperations_doNotVerify() {
        Command signedByA = a.sign(command("ea-0~mi3k2x1c", NOW));
        Command signedByB = b.sign(command("ea-1~mi3k2x1c", NOW));
        Command borrowed = new Command(new CommandId("ea-1~mi3k2x1c", 7), NOW, signedByA.operations(),
                new OriginSignature(signedByB.signature().certificate(), signedByA.signature().signature()));
        assertThat(b.refusal(borrowed)).isEqualTo("its signature by ea-1 does not verify");
        Command changed = new Command(signedByA.id(), NOW, List.of(new Operation.Put("t:idx:k", "other")), signedByA.signature());
        assertThat(b.refusal(changed)).isEqualTo("its signature by ea-0 does not verify");
        Command later = new Command(signedByA.id(), NOW + 1, signedByA.operations(), signedByA.signature());
        assertThat(b.refusal(later)).isEqualTo("its signature by ea-0 does not verify");
    }

    @Test
    void aCertificateOfAnotherCa_orOutsideItsValidity_isRefused() {
        DeploymentCa other = DeploymentCa.generate("test CA", ISSUED, Duration.ofDays(365), RANDOM); // same name, other key
        Path otherDir = dir.resolve("other");
        other.writeTrustStore(otherDir.resolve("trust.p12"), PASSWORD);
        other.issueKeyStore("ea-0", ISSUED, Duration.ofDays(30), RANDOM, otherDir.resolve("ea-0.p12"), PASSWORD);
        OriginAuthentication foreign = OriginAuthentication
                .of(TestCluster.credentials(ReplicationConfig.Tls.of(otherDir.resolve("ea-0.p12"), "pw",
                        otherDir.resolve("trust.p12"), "pw")), "ea-0");
        assertThat(b.refusal(foreign.sign(command("ea-0~mi3k2x1c", NOW)))).startsWith("its certificate is refused")
                .contains("not issued by a trusted deployment CA");
        long expired = ISSUED.plus(Duration.ofDays(31)).toEpochMilli();
        assertThat(b.refusal(a.sign(command("ea-0~mi3k2x1c", expired)))).contains("was not valid at the command's origin time");
        assertThat(b.refusal(a.sign(command("ea-0~mi3k2x1c", ISSUED.toEpochMilli() - 1)))).contains("was not valid");
    }

    @Test
    void ownCommands_areAcceptedWithoutVerifying_exactlyWhenEveryReplicaAcceptsThem() {
        long expired = ISSUED.plus(Duration.ofDays(31)).toEpochMilli();
        long notYet = ISSUED.toEpochMilli() - 1;
        for (long millis : new long[]{NOW, expired, notYet, ISSUED.toEpochMilli()}) {
            Command signed = a.sign(command("ea-0~mi3k2x1c", millis));
            assertThat(a.acceptsOwn(signed)).as("at %d", millis).isEqualTo(b.refusal(signed) == null)
                    .isEqualTo(a.refusal(signed) == null);
        }
        assertThat(a.acceptsOwn(a.sign(command("ea-0~mi3k2x1c", expired)))).isFalse();
        assertThat(a.acceptsOwn(command("ea-0~mi3k2x1c", NOW))).as("unsigned").isFalse();
        assertThat(OriginAuthentication.NONE.acceptsOwn(command("ea-0~mi3k2x1c", NOW))).isFalse();
    }

    @Test
    void aGarbageCertificate_isRefusedNotThrown() {
        Command signed = a.sign(command("ea-0~mi3k2x1c", NOW));
        Command garbage = new Command(signed.id(), NOW, signed.operations(), new OriginSignature(new byte[]{0x30, 0x03, 1, 2, 3},
                signed.signature().signature()));
        assertThat(b.refusal(garbage)).startsWith("its certificate is refused: not an X.509 certificate");
    }

    @Test
    void aReplicaWithTlsButNoOriginCredentials_failsAtConstruction() {
        ReplicationConfig config = ReplicationConfig.defaults("ea-0").withTls(tls("ea-0"));
        assertThatThrownBy(() -> new Replica(config, ReplicaClusterTest.KEYSPACE, null, java.time.Clock.systemUTC(),
                new io.micrometer.core.instrument.simple.SimpleMeterRegistry()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runs TLS but has no origin credentials");
    }

    @Test
    void aKeyStoreOfAnotherReplica_failsTheStart() {
        assertThatThrownBy(() -> OriginAuthentication.of(TestCluster.credentials(tls("ea-1")), "ea-0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds the certificate of replica ea-1, not of ea-0");
    }
}
