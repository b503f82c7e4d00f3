package eu.vpki.aa.core;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Privacy by construction, checked on what each side ends up with: the AA's audit log (the only
 * thing it writes) holds no trace of the EC or of any key, and the replay cache only hashes; the
 * EA's decrypted validation requests hold no trace of the AT or its keys.
 */
class PrivacyTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void theAaNeverRecordsTheEc_andTheEaNeverSeesTheAt() throws IOException {
        List<byte[]> ecTraces = new ArrayList<>();
        List<byte[]> atTraces = new ArrayList<>();
        List<byte[]> keyTraces = new ArrayList<>();
        try (AaFixture aa = new AaFixture(PKI)) {
            for (int i = 0; i < 3; i++) {
                SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
                StationMessages.Request request = aa.atRequest(station, Protection.FULL, SimulatedStation.CAM_DENM, NOW);
                var answer = (AuthorizationOutcome.Answered) aa.service.authorize(request.body()).join();
                EtsiCertificate at = aa.read(answer.response(), request).authorizationTicket().orElseThrow();
                ecTraces.add(station.enrolmentCredential().hashedId8().bytes());
                ecTraces.add(station.enrolmentCredential().encoded());
                ecTraces.add(station.enrolmentCredential().verificationKey().compressed());
                atTraces.add(at.hashedId8().bytes());
                atTraces.add(at.encoded());
                atTraces.add(at.verificationKey().compressed());
                atTraces.add(at.verificationKey().x());
                keyTraces.add(at.verificationKey().compressed());
                keyTraces.add(request.message().requestHash());
                keyTraces.add(request.message().aesKey());
            }
            SimulatedStation revoked = aa.enrolledStation(EtsiCurve.NIST_P256);
            aa.ea.revokedEcs.add(revoked.enrolmentCredential().hashedId8());
            aa.service.authorize(aa.atRequest(revoked, Protection.FULL, SimulatedStation.CAM_DENM, NOW).body()).join();
            ecTraces.add(revoked.enrolmentCredential().hashedId8().bytes());

            // the AA's audit log: AT digests, EA, codes; no EC, no key, no request hash, in binary or in hex
            String audit = new String(aa.auditBytes(), StandardCharsets.UTF_8);
            assertThat(aa.auditLines()).hasSize(4)
                    .allSatisfy(
                            l -> assertThat(l).matches("\\S+Z (issued|refused) code=\\d+ at=([0-9A-F]{16}|-) ea=[0-9A-F]{16} reason=\\S+"));
            for (byte[] trace : concat(ecTraces, keyTraces)) {
                assertThat(audit).doesNotContainIgnoringCase(HEX.formatHex(trace));
                assertThat(AaFixture.indexOf(aa.auditBytes(), trace)).isEqualTo(-1);
            }
            assertThat(aa.replayCache.size()).as("only fingerprints, one per readable request").isEqualTo(4);

            // the EA: what it decrypted never contains the AT, its key or its digest
            assertThat(aa.ea.seenPlaintexts).hasSize(4);
            for (byte[] seen : aa.ea.seenPlaintexts) {
                for (byte[] trace : atTraces) {
                    assertThat(AaFixture.indexOf(seen, trace)).isEqualTo(-1);
                }
            }
        }
    }

    private static List<byte[]> concat(List<byte[]> a, List<byte[]> b) {
        List<byte[]> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
