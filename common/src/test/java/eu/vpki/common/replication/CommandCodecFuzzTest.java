package eu.vpki.common.replication;

import com.code_intelligence.jazzer.junit.FuzzTest;
import eu.vpki.common.etsi.crypto.DeploymentCa;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.fleet.EcRecord;
import eu.vpki.common.fleet.FleetCommands;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.testing.FuzzContract;
import eu.vpki.common.testing.FuzzCorpus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzz target for the replication wire format: every message a replica receives from its group is
 * decoded by its kind (first byte) the way {@code MessageHandler} dispatches it. Property:
 * {@link FuzzContract} (only {@code PkiException}, and no input costs more than the bound; the
 * codec refuses a length above the bytes left before allocating). Long run: docs/security.md
 * ("Fuzzing").
 */
@Tag("fuzz") // a JVM of its own (the root pom's execution fuzz-targets)
class CommandCodecFuzzTest {
    @FuzzTest(maxDuration = "")
    void message(byte[] input) {
        // a 1 MiB bound: the codec allocates at most about what the message holds, plus small constants
        FuzzContract.check(1L << 20, () -> {
            switch (CommandCodec.kind(input)) {
                case CommandCodec.FORMAT_VERSION -> CommandCodec.decode(input);
                case CommandCodec.APPLIED_QUERY -> CommandCodec.decodeAppliedQuery(input);
                case CommandCodec.COMMANDS -> CommandCodec.decodeCommands(input);
                case CommandCodec.REPORT -> CommandCodec.decodeReport(input);
                case CommandCodec.PULL -> CommandCodec.decodePull(input);
                case CommandCodec.APPLIED_ANSWER -> CommandCodec.decodeAppliedAnswer(input);
                case CommandCodec.SEALED -> CommandCodec.decodeSealed(input);
                case CommandCodec.TAGGED -> CommandCodec.decodeTagged(input);
                case CommandCodec.SNAPSHOT_REQUEST -> CommandCodec.decodeSnapshotRequest(input);
                case CommandCodec.SNAPSHOT_PAGE -> CommandCodec.decodeSnapshotPage(input);
                default -> {
                    // ignored by the replica
                }
            }
        });
    }

    /**
     * The origin check of every command a replica applies with TLS on: decoding, then the certificate it
     * carries (parsed by the JDK's X.509 code, checked against the deployment CA) and its signature. It
     * refuses with a reason and never throws. The deployment (CA trust store and replica ea-1's key store)
     * is fixed in {@code fuzz-deployment/}, so the seeds signed by ea-1 reach the signature check.
     */
    @FuzzTest(maxDuration = "")
    void origin(byte[] input) {
        FuzzContract.check(1L << 20, () -> {
            if (CommandCodec.kind(input) == CommandCodec.FORMAT_VERSION) {
                Deployment.AUTHENTICATION.refusal(CommandCodec.decode(input));
            }
        });
    }

    private static final String DEPLOYMENT_PASSWORD = "fuzz-deployment";

    /** Read on first use (writeDeployment runs before it exists). */
    private static final class Deployment {
        static final OriginAuthentication AUTHENTICATION = fixedDeployment();
    }

    /** ea-1's signing side and every replica's checking side of the fixed deployment in the test resources. */
    private static OriginAuthentication fixedDeployment() {
        try {
            Path dir = Path.of(CommandCodecFuzzTest.class.getResource("fuzz-deployment/trust.p12").toURI()).getParent();
            return OriginAuthentication.of(TestCluster.credentials(ReplicationConfig.Tls.of(dir.resolve("ea-1.p12"), DEPLOYMENT_PASSWORD,
                    dir.resolve("trust.p12"), DEPLOYMENT_PASSWORD)), "ea-1");
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Writes the fixed deployment the {@link #origin} target checks against (CA valid 2026-2036, ea-1's
     * certificate from it): {@code mvn -pl common test -Dtest=CommandCodecFuzzTest#writeDeployment
     * -Dvpki.fuzz.write-deployment=true}, then {@code writeSeeds}.
     */
    @Test
    @EnabledIfSystemProperty(named = "vpki.fuzz.write-deployment", matches = "true")
    void writeDeployment() {
        Path dir = Path.of("src/test/resources/eu/vpki/common/replication/fuzz-deployment");
        SecureRandom random = new SecureRandom();
        Instant from = Instant.parse("2026-01-01T00:00:00Z");
        DeploymentCa ca = DeploymentCa.generate("vpki fuzz deployment CA", from, Duration.ofDays(3650), random);
        ca.writeTrustStore(dir.resolve("trust.p12"), DEPLOYMENT_PASSWORD.toCharArray());
        ca.issueKeyStore("ea-1", from, Duration.ofDays(3650), random, dir.resolve("ea-1.p12"), DEPLOYMENT_PASSWORD.toCharArray());
    }

    /**
     * Writes real messages (the commands an Operator and an EA replicate, and the control messages) as
     * seeds: {@code mvn -pl common test -Dtest=CommandCodecFuzzTest#writeSeeds -Dvpki.fuzz.write-seeds=true}.
     */
    @Test
    @EnabledIfSystemProperty(named = "vpki.fuzz.write-seeds", matches = "true")
    void writeSeeds() throws IOException {
        FuzzCorpus corpus = FuzzCorpus.of(CommandCodecFuzzTest.class);
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EtsiKeyPair station = EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM);
        StationRecord record = new StationRecord("op-1", "VIN-WVW000000000001", station.publicKey(), List.of(), Duration.ofDays(365), null,
                StationStatus.ACTIVE, 1_732_000_000_000L);
        EcRecord ec = new EcRecord(pki.issueEc(station), record.canonicalId(), EcRecord.Status.ACTIVE, 1_732_000_000_001L);
        Command registration = new Command(new CommandId("op-1~mi3k0000", 17), 1_732_000_000_000L,
                FleetCommands.register("op-1", List.of(record)));
        Command enrolment = new Command(new CommandId("ea-1~mi3k2x1c", 42), 1_732_000_000_001L,
                FleetCommands.enrolled(ec, Optional.of(ec.superseded(1_732_000_000_002L))));
        OriginAuthentication ea1 = Deployment.AUTHENTICATION;
        // origin time within the fixed deployment's validity (2026-2036)
        Command signedEnrolment = ea1.sign(new Command(enrolment.id(), 1_780_000_000_000L, enrolment.operations()));
        assertThat(ea1.refusal(signedEnrolment)).isNull();
        for (String target : List.of("message", "origin")) {
            corpus.write(target, "signed-enrolment", CommandCodec.encode(signedEnrolment));
            corpus.write(target, "signed-registration-of-another-replica",
                    CommandCodec.encode(ea1.sign(new Command(registration.id(), 1_780_000_000_000L, registration.operations()))));
        }
        corpus.write("origin", "enrolment", CommandCodec.encode(enrolment));
        corpus.write("message", "registration", CommandCodec.encode(registration));
        corpus.write("message", "enrolment", CommandCodec.encode(enrolment));
        corpus.write("message", "applied-query", CommandCodec.encodeAppliedQuery(enrolment.id()));
        corpus.write("message", "commands", CommandCodec.encodeCommands(List.of(CommandCodec.encode(registration),
                CommandCodec.encode(new Command(new CommandId("op-1~mi3k0000", 18), 1_732_000_000_003L,
                        FleetCommands.changeStatus(record.withStatus(StationStatus.REVOKED, 1_732_000_000_003L)))))));
        corpus.write("message", "report", CommandCodec.encodeReport(new AppliedReport("ea-1", "ea-1~mi3k2x1c", true,
                Map.of("ea-1~mi3k2x1c", 42L, "op-1~mi3k0000", 18L), Map.of("op-1~mi3k0000", 3L), 81_234_567_890_123L,
                Map.of("op-1~mi3k0000", 81_230_000_000_000L, "ea-2~mi3k2x1d", 81_229_500_000_000L))));
        corpus.write("message", "pull", CommandCodec.encodePull(new CommandCodec.Pull("op-1~mi3k0000", 10, 18)));
        SnapshotPage.Position position = new SnapshotPage.Position(1, "17408",
                List.of(new SnapshotPage.PendingSet("ea:operator:op-1", "2048")));
        corpus.write("message", "snapshot-request", CommandCodec.encodeSnapshotRequest(position));
        corpus.write("message", "snapshot-page", CommandCodec.encodeSnapshotPage(new SnapshotPage(
                Map.of("op-1~mi3k0000", 18L, "ea-1~mi3k2x1c", 42L),
                List.of(new SnapshotPage.Entry(SnapshotPage.Entry.Kind.HASH, "ea:station:VIN-WVW000000000001",
                        Map.of("status", "ACTIVE", "@version", "0001732000000000"), java.util.Set.of(), null),
                        new SnapshotPage.Entry(SnapshotPage.Entry.Kind.SET_PART, "ea:operator:op-1", Map.of(),
                                java.util.Set.of("VIN-WVW000000000001", "VIN-WVW000000000002"), null),
                        new SnapshotPage.Entry(SnapshotPage.Entry.Kind.STRING, "ea:ecidx:00ff", Map.of(), java.util.Set.of(),
                                "VIN-WVW000000000001")),
                position)));
        assertThat(CommandCodec.decode(CommandCodec.encode(enrolment))).isEqualTo(enrolment);
    }
}
