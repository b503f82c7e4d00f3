package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes.Authorization;
import eu.vpki.common.error.EtsiCodes.Validation;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AuthorizationServiceTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    private static final PsidSsp CAM = Station.CAM_DENM.get(0);
    /** The time the audit log writes at the start of a line (the log's own clock, UTC). */
    private static final String AUDIT_TIME = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    private final AaFixture aa = new AaFixture(PKI);

    @AfterEach
    void tearDown() throws IOException {
        aa.close();
    }

    private AuthorizationOutcome.Answered answered(OutgoingRequest request) {
        AuthorizationOutcome outcome = aa.service.authorize(request.body()).join();
        assertThat(outcome).isInstanceOf(AuthorizationOutcome.Answered.class);
        return (AuthorizationOutcome.Answered) outcome;
    }

    /**
     * The station reads a refusal with {@code code}; nothing was issued (no AT in the response, metrics, or audit);
     * the operator's log says why, with the response code's name (INFO, WARN when this side failed).
     */
    private void assertRefused(Station station, OutgoingRequest request, int code) {
        AuthorizationOutcome.Answered answer;
        try (LogCapture log = LogCapture.of(AuthorizationService.class)) {
            answer = answered(request);
            assertThat(log.events(Level.INFO)).singleElement().satisfies(e -> {
                assertThat(e.getLevel()).isIn(Level.INFO, Level.WARN);
                assertThat(e.getFormattedMessage()).startsWith("authorization refused with " + EtsiCodes.authorizationName(code) + " (")
                        .doesNotContainIgnoringCase(java.util.HexFormat.of().formatHex(request.aesKey()));
            });
        }
        assertThat(answer.responseCode()).isEqualTo(code);
        AuthorizationMessages.AtResult result = station.read(answer.response(), request);
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
        Station station = aa.enrolledStation(curve);
        OutgoingRequest request = station.request(new Protection(pop, true), Station.CAM_DENM, NOW);

        AuthorizationOutcome.Answered answer = answered(request);

        assertThat(answer.responseCode()).isEqualTo(Authorization.OK);
        EtsiCertificate at = station.read(answer.response(), request).authorizationTicket().orElseThrow();
        assertThat(at.verificationKey()).isEqualTo(station.lastAtKey.publicKey());
        assertThat(at.appPermissions()).containsExactlyElementsOf(Station.CAM_DENM);
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
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        // the EA confirms CAM with fewer SSP bits, and a PSID the station never asked for
        aa.ea.confirm = requested -> SubjectAttributes.permissions(List.of(
                PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x80, (byte) 0x00), PsidSsp.of(Psids.SPATEM)));
        OutgoingRequest request = station.request(Protection.FULL, Station.CAM_DENM, NOW);

        EtsiCertificate at = station.read(answered(request).response(), request).authorizationTicket().orElseThrow();

        assertThat(at.appPermissions()).containsExactly(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x80, (byte) 0x00));
    }

    @Test
    void eachRequestGetsItsOwnAt_neverABatch() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest first = station.request(Protection.FULL, Station.CAM_DENM, NOW);
        EtsiCertificate a = station.read(answered(first).response(), first).authorizationTicket().orElseThrow();
        OutgoingRequest second = station.request(Protection.FULL, Station.CAM_DENM, NOW);
        EtsiCertificate b = station.read(answered(second).response(), second).authorizationTicket().orElseThrow();

        assertThat(a.hashedId8()).isNotEqualTo(b.hashedId8());
        assertThat(b.verificationKey()).isEqualTo(station.lastAtKey.publicKey());
        assertThat(aa.tickets("issued")).isEqualTo(2);
    }

    @Test
    void failedEaReplica_isSkipped_andCounted() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        aa.ea.down.add(AaFixture.EA_1);
        for (int i = 0; i < 2; i++) { // the first access point rotates: one of the two requests hits EA_1 first
            OutgoingRequest request = station.request(Protection.FULL, Station.CAM_DENM, NOW);
            assertThat(answered(request).responseCode()).isEqualTo(Authorization.OK);
        }
        assertThat(aa.ea.calls).containsExactlyInAnyOrder(AaFixture.EA_1, AaFixture.EA_2, AaFixture.EA_2);
        assertThat(aa.eaFailures()).isEqualTo(1);
        assertThat(aa.tickets("issued")).isEqualTo(2);
    }

    @Test
    void refusal_noEaReplicaAnswers_cantReachEa() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        aa.ea.down.addAll(List.of(AaFixture.EA_1, AaFixture.EA_2));
        assertRefused(station, station.request(Protection.FULL, Station.CAM_DENM, NOW), Authorization.AA_EA_CANTREACHEA);
        assertThat(aa.eaFailures()).isEqualTo(2);
        assertThat(aa.auditLines()).last().asString().endsWith("reason=" + ErrorCode.EA_UNREACHABLE);
    }

    @Test
    void refusal_eaNotInTheCtl_unknownEa() {
        TestPki other = new TestPki(EtsiCurve.NIST_P256);
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest request = station.request(Protection.FULL, SubjectAttributes.permissions(Station.CAM_DENM), NOW, other.ea);
        assertRefused(station, request, Authorization.ITS_AA_UNKNOWNEA);
        assertThat(aa.ea.calls).isEmpty();
    }

    @Test
    void refusal_eaDoesNotKnowTheEc_unknownIts() {
        Station stranger = Station.enrolled(PKI, EtsiCurve.NIST_P256); // EC never registered at the EA
        assertRefused(stranger, stranger.request(Protection.FULL, Station.CAM_DENM, NOW), Authorization.UNKNOWNITS);
    }

    @Test
    void refusal_revokedEc_unknownIts() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        aa.ea.revokedEcs.add(station.ec.hashedId8());
        assertRefused(station, station.request(Protection.FULL, Station.CAM_DENM, NOW), Authorization.UNKNOWNITS);
    }

    @Test
    void refusal_expiredEc_unknownIts() {
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        EtsiCertificate expired = CertificateIssuer.issue(CertificateProfiles.enrolmentCredential(
                Validity.of(NOW.minus(Duration.ofMinutes(20)), Validity.Unit.MINUTES, 10), key.publicKey(), null, null), PKI.ea, PKI.eaSigner());
        Station station = new Station(PKI, expired, key);
        aa.ea.enrolmentCredentials.put(expired.hashedId8(), expired);
        assertRefused(station, station.request(Protection.FULL, Station.CAM_DENM, NOW), Authorization.UNKNOWNITS);
    }

    @Test
    void refusal_eaDeniesPermissions_isPassedOn() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        aa.ea.forcedCode = Validation.DENIEDPERMISSIONS;
        assertRefused(station, station.request(Protection.FULL, Station.CAM_DENM, NOW), Authorization.DENIEDPERMISSIONS);
        assertThat(aa.auditLines()).last().asString().endsWith("reason=" + ErrorCode.EA_REFUSED);
    }

    @Test
    void refusal_keyTagDoesNotMatchTheKeys_keysDontMatch() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest genuine = station.request(new Protection(false, true), Station.CAM_DENM, NOW);
        byte[] plaintext = decryptAsTheAa(genuine);
        assertRefused(station, station.tamperedKeyTag(plaintext), Authorization.ITS_AA_KEYSDONTMATCH);
        assertThat(aa.ea.calls).isEmpty();
    }

    @Test
    void refusal_brokenProofOfPossession_invalidSignature() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest genuine = station.request(Protection.FULL, Station.CAM_DENM, NOW);
        assertRefused(station, station.tamperedKeyTag(decryptAsTheAa(genuine)), Authorization.INVALIDSIGNATURE);
        assertThat(aa.ea.calls).isEmpty();
    }

    @Test
    void refusal_replayedRequest_outOfSync() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest request = station.request(Protection.FULL, Station.CAM_DENM, NOW);
        assertThat(answered(request).responseCode()).isEqualTo(Authorization.OK);

        aa.clock.advance(Duration.ofMinutes(4));
        AuthorizationOutcome.Answered replay = answered(request);

        assertThat(replay.responseCode()).isEqualTo(Authorization.ITS_AA_OUTOFSYNCREQUEST);
        assertThat(station.read(replay.response(), request).authorizationTicket()).isEmpty();
        assertThat(aa.tickets("issued")).isEqualTo(1);
        assertThat(aa.ea.calls).hasSize(1);
        // refused before the EA was asked, the audit line still names the EA the request named
        assertThat(aa.auditLines()).last().asString().endsWith(" ea=" + PKI.ea.hashedId8().toHex() + " reason=" + ErrorCode.REPLAYED_REQUEST);
    }

    @Test
    void refusal_unsignedReplay_evenWithoutAGenerationTime() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest request = station.request(new Protection(false, true), Station.CAM_DENM, NOW);
        assertThat(answered(request).responseCode()).isEqualTo(Authorization.OK);
        assertThat(answered(request).responseCode()).isEqualTo(Authorization.ITS_AA_OUTOFSYNCREQUEST);
        assertThat(aa.tickets("issued")).isEqualTo(1);
    }

    @Test
    void refusal_requestOlderThanTheWindow_outOfSync() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest request = station.request(Protection.FULL, Station.CAM_DENM, NOW.minus(Duration.ofMinutes(6)));
        assertRefused(station, request, Authorization.ITS_AA_OUTOFSYNCREQUEST);
        assertThat(aa.auditLines()).last().asString().endsWith("reason=" + ErrorCode.OUTDATED_REQUEST);
    }

    @Test
    void refusal_requestFromTheFuture_outOfSync() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        assertRefused(station, station.request(Protection.FULL, Station.CAM_DENM, NOW.plus(Duration.ofMinutes(1))),
                Authorization.ITS_AA_OUTOFSYNCREQUEST);
    }

    @Test
    void refusal_withoutProofOfPossession_whenRequired() throws IOException {
        try (AaFixture strict = new AaFixture(PKI, new RequestWindow(Duration.ofMinutes(5), Duration.ofSeconds(30), true, true))) {
            Station station = strict.enrolledStation(EtsiCurve.NIST_P256);
            OutgoingRequest request = station.request(new Protection(false, true), Station.CAM_DENM, NOW);
            AuthorizationOutcome.Answered answer = (AuthorizationOutcome.Answered) strict.service.authorize(request.body()).join();
            assertThat(answer.responseCode()).isEqualTo(Authorization.INVALIDSIGNATURE);
            assertThat(station.read(answer.response(), request).authorizationTicket()).isEmpty();
            assertThat(strict.tickets("issued")).isZero();
        }
    }

    @Test
    void refusal_ecSignatureInClear_byDefault_badContentType_beforeReplayAndEa() {
        assertThat(RequestWindow.DEFAULT.requireEncryptedEcSignature()).isTrue();
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest request = station.request(new Protection(true, false), Station.CAM_DENM, NOW);

        assertRefused(station, request, Authorization.ITS_AA_BADCONTENTTYPE);

        assertThat(aa.auditLines()).last().asString().endsWith("reason=" + ErrorCode.UNEXPECTED_CONTENT);
        assertThat(aa.ea.calls).isEmpty();
        assertThat(aa.replayCache.size()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"true", "false"})
    void issuesAt_ecSignatureInClear_whenThePolicyAllowsIt(boolean pop) throws IOException {
        try (AaFixture lenient = new AaFixture(PKI, new RequestWindow(Duration.ofMinutes(5), Duration.ofSeconds(30), false, false))) {
            Station station = lenient.enrolledStation(EtsiCurve.BRAINPOOL_P384R1);
            OutgoingRequest request = station.request(new Protection(pop, false), Station.CAM_DENM, NOW);
            AuthorizationOutcome.Answered answer = (AuthorizationOutcome.Answered) lenient.service.authorize(request.body()).join();
            assertThat(answer.responseCode()).isEqualTo(Authorization.OK);
            EtsiCertificate at = station.read(answer.response(), request).authorizationTicket().orElseThrow();
            CertificateChecks.checkIssuedBy(at, PKI.aa, NOW);
            assertThat(lenient.ea.calls).hasSize(1);
        }
    }

    @Test
    void refusal_unknownPsidRequested_deniedPermissions() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        assertRefused(station, station.request(Protection.FULL, List.of(CAM, PsidSsp.of(4242)), NOW), Authorization.ITS_AA_DENIEDPERMISSIONS);
        assertThat(aa.ea.calls).isEmpty();
    }

    @Test
    void refusal_eaConfirmsNothingThatWasRequested_deniedPermissions() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        aa.ea.confirm = requested -> SubjectAttributes.permissions(List.of(PsidSsp.of(Psids.SPATEM)));
        assertRefused(station, station.request(Protection.FULL, List.of(CAM), NOW), Authorization.DENIEDPERMISSIONS);
        assertThat(aa.auditLines()).last().asString().endsWith("reason=" + ErrorCode.PERMISSIONS_NOT_ALLOWED);
    }

    @Test
    void anAtWhoseAuditEventCannotBeWritten_isNotHandedOut() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        OutgoingRequest request = station.request(Protection.FULL, Station.CAM_DENM, NOW);
        AuthorizationService withBrokenAudit = aa.withAudit((type, keyValues) -> {
            throw new java.io.UncheckedIOException(new java.io.IOException("disk full"));
        });

        assertThatThrownBy(() -> withBrokenAudit.authorize(request.body()).join()).hasCauseInstanceOf(java.io.UncheckedIOException.class);
        assertThat(aa.tickets("issued")).isZero();
    }

    @Test
    void undecryptable_tamperedCiphertext_noResponse() {
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        byte[] body = station.request(Protection.FULL, Station.CAM_DENM, NOW).body();
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
        Station station = aa.enrolledStation(EtsiCurve.NIST_P256);
        EtsiKeyPair atKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM);
        OutgoingRequest forOther = AuthorizationMessages.request(
                new AuthorizationMessages.AtRequest(atKey.publicKey(), null, SubjectAttributes.permissions(Station.CAM_DENM)),
                new SoftwareSigner(atKey, RANDOM),
                station.ec, new SoftwareSigner(station.ecKey, RANDOM), PKI.ea,
                other.aa.asEncryptionRecipient(), new Protection(false, true), NOW, RANDOM, station.encryption);

        assertThat(aa.service.authorize(forOther.body()).join()).isInstanceOfSatisfying(AuthorizationOutcome.Undecryptable.class,
                u -> assertThat(u.reason()).isEqualTo(ErrorCode.NOT_ENCRYPTED_FOR_US));
        assertThat(aa.service.authorize(new byte[]{1, 2, 3}).join()).isInstanceOfSatisfying(AuthorizationOutcome.Undecryptable.class,
                u -> assertThat(u.reason()).isEqualTo(ErrorCode.MALFORMED_ENCODING));
        assertNothingIssued();
        assertThat(aa.tickets("undecryptable")).isEqualTo(2);
    }

    private byte[] decryptAsTheAa(OutgoingRequest request) {
        return DecryptedRequest.decrypt(request.body(), new DecryptionIdentity(PKI.aaEncKey, PKI.aa.hashedId8(), PKI.aa.sha256()),
                aa.encryption).plaintext();
    }
}
