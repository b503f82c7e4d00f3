package eu.vpki.common.replication;

import com.code_intelligence.jazzer.junit.FuzzTest;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.fleet.EcRecord;
import eu.vpki.common.fleet.FleetCommands;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.testing.FuzzContract;
import eu.vpki.common.testing.FuzzCorpus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzz target for the replication wire format: every message a replica receives from its group is
 * decoded by its kind (first byte) the way {@code Membership} dispatches it. Property:
 * {@link FuzzContract} (only {@code PkiException}, and no input costs more than the bound; the
 * codec refuses a length above the bytes left before allocating). Long run: docs/security.md
 * ("Fuzzing").
 */
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
                default -> {
                    // ignored by the replica
                }
            }
        });
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
        assertThat(CommandCodec.decode(CommandCodec.encode(enrolment))).isEqualTo(enrolment);
    }
}
