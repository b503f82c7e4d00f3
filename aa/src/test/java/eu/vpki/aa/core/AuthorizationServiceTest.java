package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes.Authorization;
import eu.vpki.common.error.EtsiCodes.Validation;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import ch.qos.logback.classic.Level;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.testing.LogCapture;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static eu.vpki.aa.core.AaFixture.MESSAGES;
import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static eu.vpki.station.SimulatedStation.CAM_DENM;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AuthorizationServiceTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    private static final PsidSsp CAM = CAM_DENM.get(0);
    /** The time the audit log writes at the start of a line (the log's own clock, UTC). */
    private static final String AUDIT_TIME = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    private final AaFixture aa = new AaFixture(PKI);

    @AfterEach
    void tearDown() throws IOException {
        aa.close();
    }

    private AuthorizationOutcome.Answered answered(StationMessages.Request request) {
        AuthorizationOutcome outcome = aa.service.authorize(request.body()).join();
        assertThat(outcome).isInstanceOf(AuthorizationOutcome.Answered.class);
        return (AuthorizationOutcome.Answered) outcome;
    }

    /**
     * The station reads a refusal with {@code code}; nothing was issued (no AT in the response, metrics, or audit);
     * the operator's log says why, with the response code's name (INFO, WARN when this side failed).
     */
    private void assertRefused(StationMessages.Request request, int code) {
        AuthorizationOutcome.Answered answer;
        try (LogCapture log = LogCapture.of(AuthorizationService.class)) {
            answer = answered(request);
            assertThat(log.events(Level.INFO)).singleElement().satisfies(e -> {
                assertThat(e.getLevel()).isIn(Level.INFO, Level.WARN);
                assertThat(e.getFormattedMessage()).startsWith("authorization refused with " + EtsiCodes.authorizationName(code) + " (")
                        .doesNotContainIgnoringCase(java.util.HexFormat.of().formatHex(request.message().aesKey()));
            });
        }
        assertThat(answer.responseCode()).isEqualTo(code);
        AuthorizationMessages.AtResult result = aa.read(answer.response(), request);
        assertThat(result.responseCode()).isEqualTo(code);
        assertThat(result.authorizationTicket()).isEmpty();
        assertNothingIssued();
        assertThat(aa.tickets("refused", code)).isGreaterThanOrEqualTo(1);
        assertThat(aa.auditLines()).last().satisfies(l -> assertThat(l).contains(" refused code=" + code + " at=- "));
    }

    private void assertNothingIssued() {
        assertThat(aa.tickets("issued")).isZero();
        assertThat(aa.auditLines()).allSatisfy(l -> assertThat(l).doesNotContain(" issued ").contains(" at=- "));
    }

    @ParameterizedTest
    @CsvSource({"NIST_P256,true", "BRAINPOOL_P256R1,true", "BRAINPOOL_P384R1,true", "NIST_P256,false"})
    void issuesOneAt_chainedToTheAa_withTheRequestedKeyAndConfirmedPermissions(EtsiCurve curve, boolean pop) {
        SimulatedStation station = aa.enrolledStation(curve);
        StationMessages.Request request = aa.atRequest(station, new Protection(pop, true), CAM_DENM, NOW);

        AuthorizationOutcome.Answered answer = answered(request);

        assertThat(answer.responseCode()).isEqualTo(Authorization.OK);
        EtsiCertificate at = aa.read(answer.response(), request).authorizationTicket().orElseThrow();
        assertThat(at.verificationKey()).isEqualTo(request.newKey().publicKey());
        assertThat(at.appPermissions()).containsExactlyElementsOf(CAM_DENM);
        assertThat(at.name()).isEmpty();
        CertificateChecks.checkIssuedBy(at, PKI.aa, NOW);
        CertificateChecks.checkIssuedBy(PKI.aa, PKI.root, NOW);
        // backdated for stations whose clocks run behind ours; seven days in total, as the policy says
        assertThat(at.validity().start()).isEqualTo(NOW.minus(AtPolicy.DEFAULT_BACKDATE));
        assertThat(at.validity().end()).isEqualTo(NOW.minus(AtPolicy.DEFAULT_BACKDATE).plus(Duration.ofDays(7)));
        assertThat(aa.tickets("issued", Authorization.OK)).isEqualTo(1);
        assertThat(aa.auditLines()).singleElement().asString()
                .matches(AUDIT_TIME + " issued code=0 at=" + at.hashedId8().toHex() + " ea=" + PKI.ea.hashedId8().toHex() + " reason=-");
        assertThat(aa.registry.find("vpki.aa.phase").timers()).hasSize(4).allSatisfy(t -> assertThat(t.count()).isEqualTo(1));
    }

    @Test
    void grantsOnlyWhatTheEaConfirmed_andNeverMoreThanRequested() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        // the EA confirms CAM with fewer SSP bits, and a PSID the station never asked for
        aa.ea.confirm = requested -> SubjectAttributes.permissions(List.of(
                PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x80, (byte) 0x00), PsidSsp.of(Psids.SPATEM)));
        StationMessages.Request request = aa.atRequest(station, Protection.FULL, CAM_DENM, NOW);

        EtsiCertificate at = aa.read(answered(request).response(), request).authorizationTicket().orElseThrow();

        assertThat(at.appPermissions()).containsExactly(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x80, (byte) 0x00));
    }

    @Test
    void eachRequestGetsItsOwnAt_neverABatch() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        StationMessages.Request first = aa.atRequest(station, Protection.FULL, CAM_DENM, NOW);
        EtsiCertificate a = aa.read(answered(first).response(), first).authorizationTicket().orElseThrow();
        StationMessages.Request second = aa.atRequest(station, Protection.FULL, CAM_DENM, NOW);
        EtsiCertificate b = aa.read(answered(second).response(), second).authorizationTicket().orElseThrow();

        assertThat(a.hashedId8()).isNotEqualTo(b.hashedId8());
        assertThat(b.verificationKey()).isEqualTo(second.newKey().publicKey());
        assertThat(aa.tickets("issued")).isEqualTo(2);
    }

    @Test
    void failedEaReplica_isSkipped_andCounted() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        aa.ea.down.add(AaFixture.EA_1);
        for (int i = 0; i < 2; i++) { // the first access point rotates: one of the two requests hits EA_1 first
            StationMessages.Request request = aa.atRequest(station, Protection.FULL, CAM_DENM, NOW);
            assertThat(answered(request).responseCode()).isEqualTo(Authorization.OK);
        }
        assertThat(aa.ea.calls).containsExactlyInAnyOrder(AaFixture.EA_1, AaFixture.EA_2, AaFixture.EA_2);
        assertThat(aa.eaFailures()).isEqualTo(1);
        assertThat(aa.tickets("issued")).isEqualTo(2);
    }

    @Test
    void refusal_noEaReplicaAnswers_cantReachEa() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        aa.ea.down.addAll(List.of(AaFixture.EA_1, AaFixture.EA_2));
        assertRefused(aa.atRequest(station, Protection.FULL, CAM_DENM, NOW), Authorization.AA_EA_CANTREACHEA);
        assertThat(aa.eaFailures()).isEqualTo(2);
        assertThat(aa.auditLines()).last().asString().endsWith("reason=" + ErrorCode.EA_UNREACHABLE);
    }

    @Test
    void refusal_eaNotInTheCtl_unknownEa() {
        TestPki other = new TestPki(EtsiCurve.NIST_P256);
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        StationMessages.Request request = MESSAGES.authorization(station, other.ea, PKI.aa, CAM_DENM, Protection.FULL, NOW);
        assertRefused(request, Authorization.ITS_AA_UNKNOWNEA);
        assertThat(aa.ea.calls).isEmpty();
    }

    @Test
    void refusal_eaDoesNotKnowTheEc_unknownIts() {
        SimulatedStation stranger = AaFixture.withEc(PKI, EtsiCurve.NIST_P256); // EC never registered at the EA
        assertRefused(aa.atRequest(stranger, Protection.FULL, CAM_DENM, NOW), Authorization.UNKNOWNITS);
    }

    @Test
    void refusal_revokedEc_unknownIts() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        aa.ea.revokedEcs.add(station.enrolmentCredential().hashedId8());
        assertRefused(aa.atRequest(station, Protection.FULL, CAM_DENM, NOW), Authorization.UNKNOWNITS);
    }

    @Test
    void refusal_expiredEc_unknownIts() {
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiCertificate expired = CertificateIssuer.issue(CertificateProfiles.enrolmentCredential(
                Validity.of(NOW.minus(Duration.ofMinutes(20)), Validity.Unit.MINUTES, 10), key.publicKey(), null, null), PKI.ea,
                PKI.eaSigner());
        SimulatedStation station = AaFixture.withEc(key, expired);
        aa.ea.enrolmentCredentials.put(expired.hashedId8(), expired);
        assertRefused(aa.atRequest(station, Protection.FULL, CAM_DENM, NOW), Authorization.UNKNOWNITS);
    }

    @Test
    void refusal_eaDeniesPermissions_isPassedOn() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        aa.ea.forcedCode = Validation.DENIEDPERMISSIONS;
        assertRefused(aa.atRequest(station, Protection.FULL, CAM_DENM, NOW), Authorization.DENIEDPERMISSIONS);
        assertThat(aa.auditLines()).last().asString().endsWith("reason=" + ErrorCode.EA_REFUSED);
    }

    @Test
    void refusal_keyTagDoesNotMatchTheKeys_keysDontMatch() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        StationMessages.Request genuine = aa.atRequest(station, new Protection(false, true), CAM_DENM, NOW);
        byte[] plaintext = decryptAsTheAa(genuine);
        assertRefused(tamperedKeyTag(genuine, plaintext), Authorization.ITS_AA_KEYSDONTMATCH);
        assertThat(aa.ea.calls).isEmpty();
    }

    @Test
    void refusal_brokenProofOfPossession_invalidSignature() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        StationMessages.Request genuine = aa.atRequest(station, Protection.FULL, CAM_DENM, NOW);
        assertRefused(tamperedKeyTag(genuine, decryptAsTheAa(genuine)), Authorization.INVALIDSIGNATURE);
        assertThat(aa.ea.calls).isEmpty();
    }

    @Test
    void refusal_replayedRequest_outOfSync() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        StationMessages.Request request = aa.atRequest(station, Protection.FULL, CAM_DENM, NOW);
        assertThat(answered(request).responseCode()).isEqualTo(Authorization.OK);

        aa.clock.advance(Duration.ofMinutes(4));
        AuthorizationOutcome.Answered replay = answered(request);

        assertThat(replay.responseCode()).isEqualTo(Authorization.ITS_AA_OUTOFSYNCREQUEST);
        assertThat(aa.read(replay.response(), request).authorizationTicket()).isEmpty();
        assertThat(aa.tickets("issued")).isEqualTo(1);
        assertThat(aa.ea.calls).hasSize(1);
        // refused before the EA was asked, the audit line still names the EA the request named
        assertThat(aa.auditLines()).last().asString()
                .endsWith(" ea=" + PKI.ea.hashedId8().toHex() + " reason=" + ErrorCode.REPLAYED_REQUEST);
    }

    @Test
    void refusal_unsignedReplay_evenWithoutAGenerationTime() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        StationMessages.Request request = aa.atRequest(station, new Protection(false, true), CAM_DENM, NOW);
        assertThat(answered(request).responseCode()).isEqualTo(Authorization.OK);
        assertThat(answered(request).responseCode()).isEqualTo(Authorization.ITS_AA_OUTOFSYNCREQUEST);
        assertThat(aa.tickets("issued")).isEqualTo(1);
    }

    @Test
    void refusal_requestOlderThanTheWindow_outOfSync() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        StationMessages.Request request = aa.atRequest(station, Protection.FULL, CAM_DENM, NOW.minus(Duration.ofMinutes(6)));
        assertRefused(request, Authorization.ITS_AA_OUTOFSYNCREQUEST);
        assertThat(aa.auditLines()).last().asString().endsWith("reason=" + ErrorCode.OUTDATED_REQUEST);
    }

    @Test
    void refusal_requestFromTheFuture_outOfSync() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        assertRefused(aa.atRequest(station, Protection.FULL, CAM_DENM, NOW.plus(Duration.ofMinutes(1))),
                Authorization.ITS_AA_OUTOFSYNCREQUEST);
    }

    @Test
    void refusal_withoutProofOfPossession_whenRequired() throws IOException {
        try (AaFixture strict = new AaFixture(PKI, new RequestWindow(Duration.ofMinutes(5), Duration.ofSeconds(30), true, true))) {
            SimulatedStation station = strict.enrolledStation(EtsiCurve.NIST_P256);
            StationMessages.Request request = strict.atRequest(station, new Protection(false, true), CAM_DENM, NOW);
            AuthorizationOutcome.Answered answer = (AuthorizationOutcome.Answered) strict.service.authorize(request.body()).join();
            assertThat(answer.responseCode()).isEqualTo(Authorization.INVALIDSIGNATURE);
            assertThat(strict.read(answer.response(), request).authorizationTicket()).isEmpty();
            assertThat(strict.tickets("issued")).isZero();
        }
    }

    @Test
    void refusal_ecSignatureInClear_byDefault_badContentType_beforeReplayAndEa() {
        assertThat(RequestWindow.DEFAULT.requireEncryptedEcSignature()).isTrue();
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        StationMessages.Request request = aa.atRequest(station, new Protection(true, false), CAM_DENM, NOW);

        assertRefused(request, Authorization.ITS_AA_BADCONTENTTYPE);

        assertThat(aa.auditLines()).last().asString().endsWith("reason=" + ErrorCode.UNEXPECTED_CONTENT);
        assertThat(aa.ea.calls).isEmpty();
        assertThat(aa.replayCache.size()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"true", "false"})
    void issuesAt_ecSignatureInClear_whenThePolicyAllowsIt(boolean pop) throws IOException {
        try (AaFixture lenient = new AaFixture(PKI, new RequestWindow(Duration.ofMinutes(5), Duration.ofSeconds(30), false, false))) {
            SimulatedStation station = lenient.enrolledStation(EtsiCurve.BRAINPOOL_P384R1);
            StationMessages.Request request = lenient.atRequest(station, new Protection(pop, false), CAM_DENM, NOW);
            AuthorizationOutcome.Answered answer = (AuthorizationOutcome.Answered) lenient.service.authorize(request.body()).join();
            assertThat(answer.responseCode()).isEqualTo(Authorization.OK);
            EtsiCertificate at = lenient.read(answer.response(), request).authorizationTicket().orElseThrow();
            CertificateChecks.checkIssuedBy(at, PKI.aa, NOW);
            assertThat(lenient.ea.calls).hasSize(1);
        }
    }

    @Test
    void refusal_unknownPsidRequested_deniedPermissions() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        assertRefused(aa.atRequest(station, Protection.FULL, List.of(CAM, PsidSsp.of(4242)), NOW), Authorization.ITS_AA_DENIEDPERMISSIONS);
        assertThat(aa.ea.calls).isEmpty();
    }

    @Test
    void refusal_eaConfirmsNothingThatWasRequested_deniedPermissions() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        aa.ea.confirm = requested -> SubjectAttributes.permissions(List.of(PsidSsp.of(Psids.SPATEM)));
        assertRefused(aa.atRequest(station, Protection.FULL, List.of(CAM), NOW), Authorization.DENIEDPERMISSIONS);
        assertThat(aa.auditLines()).last().asString().endsWith("reason=" + ErrorCode.PERMISSIONS_NOT_ALLOWED);
    }

    @Test
    void anAtWhoseAuditEventCannotBeWritten_isNotHandedOut() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        StationMessages.Request request = aa.atRequest(station, Protection.FULL, CAM_DENM, NOW);
        AuthorizationService withBrokenAudit = aa.withAudit((type, keyValues) -> {
            throw new java.io.UncheckedIOException(new java.io.IOException("disk full"));
        });

        assertThatThrownBy(() -> withBrokenAudit.authorize(request.body()).join()).hasCauseInstanceOf(java.io.UncheckedIOException.class);
        assertThat(aa.tickets("issued")).isZero();
    }

    @Test
    void undecryptable_tamperedCiphertext_noResponse() {
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        byte[] body = aa.atRequest(station, Protection.FULL, CAM_DENM, NOW).body();
        body[body.length - 3] ^= 0x40;

        AuthorizationOutcome outcome = aa.service.authorize(body).join();

        assertThat(outcome).isInstanceOfSatisfying(AuthorizationOutcome.Undecryptable.class,
                u -> assertThat(u.reason()).isEqualTo(ErrorCode.DECRYPTION_FAILED));
        assertNothingIssued();
        assertThat(aa.tickets("undecryptable", Authorization.ITS_AA_DECRYPTIONFAILED)).isEqualTo(1);
        assertThat(aa.auditLines()).singleElement().asString()
                .matches(AUDIT_TIME + " undecryptable code=5 at=- ea=- reason=DECRYPTION_FAILED");
        assertThat(aa.ea.calls).isEmpty();
    }

    @Test
    void undecryptable_encryptedForAnotherAa_orNotEvenCoer() {
        TestPki other = new TestPki(EtsiCurve.NIST_P256);
        SimulatedStation station = aa.enrolledStation(EtsiCurve.NIST_P256);
        byte[] forOther = MESSAGES.authorization(station, PKI.ea, other.aa, CAM_DENM, new Protection(false, true), NOW).body();

        assertThat(aa.service.authorize(forOther).join()).isInstanceOfSatisfying(AuthorizationOutcome.Undecryptable.class,
                u -> assertThat(u.reason()).isEqualTo(ErrorCode.NOT_ENCRYPTED_FOR_US));
        assertThat(aa.service.authorize(new byte[]{1, 2, 3}).join()).isInstanceOfSatisfying(AuthorizationOutcome.Undecryptable.class,
                u -> assertThat(u.reason()).isEqualTo(ErrorCode.MALFORMED_ENCODING));
        assertNothingIssued();
        assertThat(aa.tickets("undecryptable")).isEqualTo(2);
    }

    /**
     * {@code genuine} with one byte of the keyTag flipped in {@code plaintext} (the keyTag follows the 8-byte eaId in
     * the SharedAtRequest), re-encrypted to the AA: it decrypts fine, fails the keyTag (or, when signed, the proof of
     * possession).
     */
    private static StationMessages.Request tamperedKeyTag(StationMessages.Request genuine, byte[] plaintext) {
        byte[] eaId = PKI.ea.hashedId8().bytes();
        byte[] tampered = plaintext.clone();
        tampered[AaFixture.indexOf(plaintext, eaId) + eaId.length] ^= 0x01;
        return MESSAGES.withPlaintext(genuine, tampered, PKI.aa);
    }

    private byte[] decryptAsTheAa(StationMessages.Request request) {
        return DecryptedRequest.decrypt(request.body(), new DecryptionIdentity(PKI.aaEncKey, PKI.aa.hashedId8(), PKI.aa.sha256()),
                aa.encryption).plaintext();
    }
}
