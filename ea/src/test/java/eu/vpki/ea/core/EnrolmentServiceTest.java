package eu.vpki.ea.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import eu.vpki.common.fleet.EcRecord;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.testing.LogCapture;
import eu.vpki.common.testing.RedisFixtureExtension;
import ch.qos.logback.classic.Level;
import eu.vpki.ea.testing.ReEncoding;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;
import static eu.vpki.ea.core.EaCoreFixture.MESSAGES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnrolmentServiceTest {
    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private static final EtsiCertificate EA = EaCoreFixture.PKI.ea;
    private EaCoreFixture ea;

    @BeforeEach
    void start() {
        ea = new EaCoreFixture(REDIS.fixture());
    }

    @AfterEach
    void stop() {
        ea.close();
    }

    @ParameterizedTest
    @EnumSource(EtsiCurve.class)
    void initialEnrolment_issuesAnEcForTheNewKeyAndReplicatesIt(EtsiCurve curve) {
        SimulatedStation station = SimulatedStation.generate("VIN-" + curve, curve, RANDOM);
        ea.register(station);

        var request = MESSAGES.enrolment(station, EA, NOW);
        var result = MESSAGES.readEnrolment(ea.enrolment.enrol(request.body()), request, EA);

        assertThat(result.responseCode()).isEqualTo(EtsiCodes.Enrolment.OK);
        EtsiCertificate ec = result.enrolmentCredential().orElseThrow();
        CertificateChecks.checkIssuedBy(ec, EA, NOW);
        assertThat(ec.appPermissions()).containsExactlyElementsOf(SimulatedStation.EC_PERMISSIONS);
        // the validity starts the backdate before issuance (stations behind our clock can use it at once), one year in total
        assertThat(ec.validity().start()).isEqualTo(NOW.minus(EaSettings.DEFAULT_BACKDATE));
        assertThat(Duration.between(ec.validity().start(), ec.validity().end())).isEqualTo(Duration.ofDays(365));
        EcRecord stored = ea.fleet.ec(ec.hashedId8()).orElseThrow();
        assertThat(stored.stationId()).isEqualTo(station.canonicalId());
        assertThat(stored.status()).isEqualTo(EcRecord.Status.ACTIVE);
        assertThat(ea.fleet.latestEc(station.canonicalId())).map(EcRecord::id).contains(ec.hashedId8());
        assertThat(ea.registry.get("vpki.ea.requests").tag("endpoint", "enrolment").tag("outcome", "ok").timer().count()).isEqualTo(1);
        assertThat(ea.audit.lines()).singleElement().asString().startsWith("ec-issued ec=" + ec.hashedId8().toHex() + " station="
                + station.canonicalId() + " operator=")
                .contains(" kind=initial validUntil=" + ec.validity().end() + " replicas=1 command=");
    }

    @Test
    void reEnrolment_signedWithTheCurrentEc_issuesANewEcAndSupersedesTheOld() {
        SimulatedStation station = ea.enrolled("VIN-RE", EtsiCurve.BRAINPOOL_P256R1);
        EtsiCertificate first = station.enrolmentCredential();

        var request = MESSAGES.reEnrolment(station, EA, NOW.plusSeconds(1));
        var result = MESSAGES.readEnrolment(ea.enrolment.enrol(request.body()), request, EA);

        assertThat(result.ok()).isTrue();
        assertThat(station.enrolmentCredential()).isNotEqualTo(first);
        assertThat(ea.fleet.ec(first.hashedId8()).orElseThrow().status()).isEqualTo(EcRecord.Status.SUPERSEDED);
        assertThat(ea.fleet.latestEc(station.canonicalId())).map(EcRecord::id).contains(station.enrolmentCredential().hashedId8());
    }

    @Test
    void reEnrolment_withASupersededEc_isRefusedAsBadStatus() {
        SimulatedStation station = ea.enrolled("VIN-OLD", EtsiCurve.NIST_P256);
        var stale = MESSAGES.reEnrolment(station, EA, NOW.plusSeconds(1));
        // the station enrols again with its canonical key: the first EC is superseded
        var replacement = MESSAGES.enrolment(station, EA, NOW.plusSeconds(2));
        assertThat(MESSAGES.readEnrolment(ea.enrolment.enrol(replacement.body()), replacement, EA).ok()).isTrue();

        assertRefused(stale, EtsiCodes.Enrolment.BADITSSTATUS, station);
    }

    @Test
    void refusal_isLoggedAtInfo_withTheEtsiResponseCodeAndTheReason_neverTheRequestOrItsKey() {
        SimulatedStation station = SimulatedStation.generate("VIN-NOT-REGISTERED", EtsiCurve.NIST_P256, RANDOM);
        var request = MESSAGES.enrolment(station, EA, NOW);
        try (LogCapture log = LogCapture.of(EnrolmentService.class)) {
            ea.enrolment.enrol(request.body());

            assertThat(log.events(Level.INFO)).singleElement().satisfies(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.INFO);
                assertThat(e.getFormattedMessage()).contains("enrolment refused with unknownits", "404 UNKNOWN_STATION",
                        "VIN-NOT-REGISTERED").doesNotContainIgnoringCase(HexFormat.of().formatHex(request.message().aesKey()))
                        .doesNotContainIgnoringCase(HexFormat.of().formatHex(request.body(), 0, 16));
            });
        }
    }

    @Test
    void undecryptableRequest_isLoggedAtWarn() {
        try (LogCapture log = LogCapture.of(EnrolmentService.class)) {
            assertThatThrownBy(() -> ea.enrolment.enrol(new byte[]{1, 2, 3})).isInstanceOf(UndecryptableRequestException.class);
            assertThat(log.events(Level.INFO)).singleElement().satisfies(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage()).contains("enrolment request not decryptable", "100 MALFORMED_ENCODING");
            });
        }
    }

    @Test
    void enrolment_rejectsUnregisteredStation() {
        SimulatedStation station = SimulatedStation.generate("VIN-UNKNOWN", EtsiCurve.NIST_P256, RANDOM);
        assertRefused(MESSAGES.enrolment(station, EA, NOW), EtsiCodes.Enrolment.UNKNOWNITS, station);
    }

    @Test
    void enrolment_rejectsARequestNotSignedWithTheCanonicalKey() {
        SimulatedStation station = SimulatedStation.generate("VIN-FORGED", EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        var forged = MESSAGES.enrolmentSignedBy(station, EtsiKeyPair.generate(EtsiCurve.NIST_P256, RANDOM), EA,
                SubjectAttributes.permissions(SimulatedStation.EC_PERMISSIONS), NOW);
        assertRefused(forged, EtsiCodes.Enrolment.INVALIDSIGNATURE, station);
    }

    @ParameterizedTest
    @EnumSource(value = StationStatus.class, names = {"SUSPENDED", "REVOKED"})
    void enrolment_rejectsAStationThatIsNotActive(StationStatus status) {
        SimulatedStation station = SimulatedStation.generate("VIN-" + status, EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        ea.setStatus(station, status);
        assertRefused(MESSAGES.enrolment(station, EA, NOW), EtsiCodes.Enrolment.BADITSSTATUS, station);
    }

    @Test
    void enrolment_rejectsPermissionEscalation() {
        SimulatedStation station = SimulatedStation.generate("VIN-GREEDY", EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        var greedy = SubjectAttributes.permissions(List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
                PsidSsp.bitmap(Psids.SPATEM, (byte) 0x01, (byte) 0xe0)));
        assertRefused(MESSAGES.enrolment(station, EA, greedy, NOW), EtsiCodes.Enrolment.DENIEDPERMISSIONS, station);
    }

    @Test
    void enrolment_rejectsAValidityBeyondTheOperatorsMaximum() {
        SimulatedStation station = SimulatedStation.generate("VIN-LONG", EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        var tooLong = new SubjectAttributes(Validity.of(NOW, Validity.Unit.YEARS, 2), null, null, SimulatedStation.EC_PERMISSIONS);
        assertRefused(MESSAGES.enrolment(station, EA, tooLong, NOW), EtsiCodes.Enrolment.DENIEDREQUEST, station);
    }

    @Test
    void enrolment_isRefusedWhileTheReplicaIsOutOfService() {
        SimulatedStation station = SimulatedStation.generate("VIN-OUT", EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        ea.replica.close(); // out of service like a minority or a FAILED replica: ReplicaStatus not SERVING

        assertRefused(MESSAGES.enrolment(station, EA, NOW), EtsiCodes.Enrolment.DENIEDREQUEST, station);
        assertThat(ea.registry.get("vpki.ea.refusals").tag("code", "REPLICATION_UNAVAILABLE").counter().count()).isEqualTo(1);
    }

    @Test
    void enrolment_acceptsAValidityWithinTheMaximum() {
        SimulatedStation station = SimulatedStation.generate("VIN-SHORT", EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        var request = MESSAGES.enrolment(station, EA, new SubjectAttributes(Validity.of(NOW, Validity.Unit.HOURS, 48), null, null,
                SimulatedStation.EC_PERMISSIONS), NOW);
        var result = MESSAGES.readEnrolment(ea.enrolment.enrol(request.body()), request, EA);
        assertThat(result.ok()).isTrue();
        assertThat(station.enrolmentCredential().validity()).isEqualTo(Validity.of(NOW, Validity.Unit.HOURS, 48));
    }

    @Test
    void enrolment_refusesAReplayedRequest() {
        SimulatedStation station = SimulatedStation.generate("VIN-REPLAY", EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        var request = MESSAGES.enrolment(station, EA, NOW);
        assertThat(MESSAGES.readEnrolment(ea.enrolment.enrol(request.body()), request, EA).ok()).isTrue();

        assertRefused(request, EtsiCodes.Enrolment.DENIEDREQUEST, station);
        assertThat(ea.registry.get("vpki.ea.refusals").tag("code", ErrorCode.REPLAYED_REQUEST.name()).counter().count()).isEqualTo(1);
    }

    @Test
    void reEncodedCapture_ofTheEphemeralKey_isRefused_atThisReplicaAndAtAnother() {
        SimulatedStation station = SimulatedStation.generate("VIN-REENC", EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        var request = MESSAGES.enrolment(station, EA, NOW);
        assertThat(MESSAGES.readEnrolment(ea.enrolment.enrol(request.body()), request, EA).ok()).isTrue();
        EtsiCertificate fresh = station.enrolmentCredential();
        var reEncoded = request.withMessage(ReEncoding.ephemeralKeyUncompressed(request.message(), EA));
        assertThat(reEncoded.body()).isNotEqualTo(request.body()).hasSize(request.body().length + 32);

        // same replica, and another replica that applied the EC but never saw the request
        for (EnrolmentService replica : List.of(ea.enrolment, ea.anotherReplica())) {
            String before = ea.replica.stateDigest();
            var result = MESSAGES.readEnrolment(replica.enrol(reEncoded.body()), reEncoded, EA);
            assertThat(result.responseCode()).isEqualTo(EtsiCodes.Enrolment.DENIEDREQUEST);
            assertThat(result.enrolmentCredential()).isEmpty();
            assertThat(ea.replica.stateDigest()).isEqualTo(before);
        }
        assertThat(ea.fleet.latestEc(station.canonicalId())).map(EcRecord::id).contains(fresh.hashedId8());
        assertThat(ea.fleet.ec(fresh.hashedId8()).orElseThrow().status()).isEqualTo(EcRecord.Status.ACTIVE);
        assertThat(ea.registry.get("vpki.ea.refusals").tag("code", ErrorCode.REPLAYED_REQUEST.name()).counter().count()).isEqualTo(2);
    }

    @Test
    void oldCapture_replayedAfterAReEnrolment_neverSupersedesTheFreshEc() {
        SimulatedStation station = SimulatedStation.generate("VIN-OLDCAP", EtsiCurve.BRAINPOOL_P256R1, RANDOM);
        ea.register(station);
        var captured = MESSAGES.enrolment(station, EA, NOW);
        assertThat(MESSAGES.readEnrolment(ea.enrolment.enrol(captured.body()), captured, EA).ok()).isTrue();
        var reEnrolment = MESSAGES.reEnrolment(station, EA, NOW.plusSeconds(10));
        assertThat(MESSAGES.readEnrolment(ea.enrolment.enrol(reEnrolment.body()), reEnrolment, EA).ok()).isTrue();
        EtsiCertificate fresh = station.enrolmentCredential();

        EnrolmentService other = ea.anotherReplica();
        String before = ea.replica.stateDigest();
        var replayed = captured.withMessage(ReEncoding.ephemeralKeyUncompressed(captured.message(), EA));
        var result = MESSAGES.readEnrolment(other.enrol(replayed.body()), replayed, EA);

        assertThat(result.responseCode()).isEqualTo(EtsiCodes.Enrolment.DENIEDREQUEST);
        assertThat(ea.replica.stateDigest()).isEqualTo(before);
        assertThat(ea.fleet.ec(fresh.hashedId8()).orElseThrow().status()).isEqualTo(EcRecord.Status.ACTIVE);
        assertThat(ea.fleet.ec(fresh.hashedId8()).orElseThrow().requestTime()).isEqualTo(NOW.plusSeconds(10));
    }

    @Test
    void unregisteredOrUnauthenticatedSenders_neverEnterTheReplayCache() {
        SimulatedStation registered = SimulatedStation.generate("VIN-CACHE", EtsiCurve.NIST_P256, RANDOM);
        ea.register(registered);
        for (int i = 0; i < 20; i++) {
            SimulatedStation stranger = SimulatedStation.generate("VIN-STRANGER-" + i, EtsiCurve.NIST_P256, RANDOM);
            assertRefused(MESSAGES.enrolment(stranger, EA, NOW), EtsiCodes.Enrolment.UNKNOWNITS, stranger);
            // the registered id, signed with another key
            assertRefused(MESSAGES.enrolmentSignedBy(registered, stranger.canonicalKey(), EA,
                    SubjectAttributes.permissions(SimulatedStation.EC_PERMISSIONS), NOW), EtsiCodes.Enrolment.INVALIDSIGNATURE, registered);
        }
        assertThat(ea.replays.size()).isZero();

        var genuine = MESSAGES.enrolment(registered, EA, NOW);
        assertThat(MESSAGES.readEnrolment(ea.enrolment.enrol(genuine.body()), genuine, EA).ok()).isTrue();
        assertThat(ea.replays.size()).isEqualTo(1);
    }

    @Test
    void enrolment_refusesAnOutdatedRequest() {
        SimulatedStation station = SimulatedStation.generate("VIN-STALE", EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        assertRefused(MESSAGES.enrolment(station, EA, NOW.minus(Duration.ofMinutes(6))), EtsiCodes.Enrolment.DENIEDREQUEST, station);
    }

    @Test
    void garbage_isUndecryptableAndChangesNothing() {
        String before = ea.replica.stateDigest();
        assertThatThrownBy(() -> ea.enrolment.enrol(new byte[]{1, 2, 3})).isInstanceOfSatisfying(UndecryptableRequestException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED_ENCODING));
        assertThat(ea.replica.stateDigest()).isEqualTo(before);
    }

    @Test
    void tamperedCiphertext_isUndecryptable() {
        SimulatedStation station = SimulatedStation.generate("VIN-TAMPER", EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        byte[] body = MESSAGES.enrolment(station, EA, NOW).body();
        body[body.length - 20] ^= 0x01;
        String before = ea.replica.stateDigest();

        assertThatThrownBy(() -> ea.enrolment.enrol(body)).isInstanceOfSatisfying(UndecryptableRequestException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.DECRYPTION_FAILED));
        assertThat(ea.replica.stateDigest()).isEqualTo(before);
    }

    @Test
    void requestForAnotherEa_isUndecryptable() {
        TestPki other = new TestPki(EtsiCurve.NIST_P256);
        SimulatedStation station = SimulatedStation.generate("VIN-ELSEWHERE", EtsiCurve.NIST_P256, RANDOM);
        ea.register(station);
        byte[] body = MESSAGES.enrolment(station, other.ea, NOW).body();
        assertThatThrownBy(() -> ea.enrolment.enrol(body)).isInstanceOfSatisfying(UndecryptableRequestException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_ENCRYPTED_FOR_US));
    }

    private void assertRefused(StationMessages.Request request, int expectedCode, SimulatedStation station) {
        String before = ea.replica.stateDigest();
        EtsiCertificate ecBefore = station.enrolmentCredential();
        var result = MESSAGES.readEnrolment(ea.enrolment.enrol(request.body()), request, EA);
        assertThat(result.responseCode()).isEqualTo(expectedCode);
        assertThat(result.enrolmentCredential()).isEmpty();
        assertThat(station.enrolmentCredential()).isEqualTo(ecBefore);
        assertThat(ea.replica.stateDigest()).as("state unchanged by a refusal").isEqualTo(before);
        assertThat(Arrays.asList(ea.registry.get("vpki.ea.refusals").counters().toArray())).isNotEmpty();
    }
}
