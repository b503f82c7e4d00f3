package eu.vpki.ea.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.RedisFixtureExtension;
import eu.vpki.ea.web.EaAccessPoints;
import eu.vpki.ea.testing.SimulatedAa;
import eu.vpki.station.SimulatedStation;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import eu.vpki.common.testing.LogCapture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static eu.vpki.ea.core.EaCoreFixture.MESSAGES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AuthorizationValidationServiceTest {
    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private static final TestPki PKI = EaCoreFixture.PKI;
    private static final EtsiCertificate EA = PKI.ea;
    private static final PsidSsp CAM = SimulatedStation.CAM_DENM.get(0);
    private final SimulatedAa aa = new SimulatedAa(PKI);
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
    @CsvSource({"NIST_P256,true", "BRAINPOOL_P256R1,false", "BRAINPOOL_P384R1,true"})
    void validEc_confirmsTheRequestedPermissions(EtsiCurve curve, boolean encryptEcSignature) {
        SimulatedStation station = ea.enrolled("VIN-AT-" + curve, curve);
        OutgoingRequest toEa = forwarded(station, EA, List.of(CAM), new Protection(true, encryptEcSignature));

        var result = aa.read(ea.validation.validate(toEa.body()), toEa, EA);

        assertThat(result.responseCode()).isEqualTo(EtsiCodes.Validation.OK);
        assertThat(result.confirmed().orElseThrow().appPermissions()).containsExactly(CAM);
    }

    @Test
    void emptyRequest_confirmsEverythingTheOperatorPermitted() {
        SimulatedStation station = ea.enrolled("VIN-ALL", EtsiCurve.NIST_P256);
        OutgoingRequest toEa = forwarded(station, EA, List.of(), Protection.FULL);
        var result = aa.read(ea.validation.validate(toEa.body()), toEa, EA);
        assertThat(result.confirmed().orElseThrow().appPermissions()).containsExactlyElementsOf(SimulatedStation.CAM_DENM);
    }

    @Test
    void permissionEscalation_isDenied() {
        SimulatedStation station = ea.enrolled("VIN-ESC", EtsiCurve.NIST_P256);
        ea.setPermissions(station, List.of(CAM));
        OutgoingRequest toEa = forwarded(station, EA, SimulatedStation.CAM_DENM, Protection.FULL);
        assertRefused(toEa, EtsiCodes.Validation.DENIEDPERMISSIONS);
    }

    @Test
    void sspBeyondThePermittedOne_isDenied() {
        SimulatedStation station = ea.enrolled("VIN-SSP", EtsiCurve.NIST_P256);
        ea.setPermissions(station, List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x00, (byte) 0x00)));
        OutgoingRequest toEa = forwarded(station, EA, List.of(CAM), Protection.FULL);
        assertRefused(toEa, EtsiCodes.Validation.DENIEDPERMISSIONS);
    }

    @Test
    void suspendedStation_isDenied() {
        SimulatedStation station = ea.enrolled("VIN-SUSP", EtsiCurve.NIST_P256);
        ea.setStatus(station, StationStatus.SUSPENDED);
        OutgoingRequest toEa = forwarded(station, EA, List.of(CAM), Protection.FULL);
        assertRefused(toEa, EtsiCodes.Validation.DENIEDPERMISSIONS);
    }

    /**
     * The EA keeps the EC and station records of a validation for the next one (EcStationCache): each
     * change applied after a successful validation must decide the next request of the same EC.
     */
    @ParameterizedTest
    @CsvSource({"SUSPENDED", "REVOKED", "PERMISSIONS", "SUPERSEDED"})
    void changeAppliedAfterAValidation_decidesTheNextRequestWithTheSameEc(String change) {
        SimulatedStation station = ea.enrolled("VIN-CHG-" + change, EtsiCurve.NIST_P256);
        OutgoingRequest first = forwarded(station, EA, List.of(CAM), Protection.FULL);
        assertThat(aa.read(ea.validation.validate(first.body()), first, EA).responseCode()).isEqualTo(EtsiCodes.Validation.OK);
        OutgoingRequest next = forwarded(station, EA, List.of(CAM), Protection.FULL);

        switch (change) {
            case "SUSPENDED", "REVOKED" -> ea.setStatus(station, StationStatus.valueOf(change));
            case "PERMISSIONS" -> ea.setPermissions(station, List.of(PsidSsp.of(Psids.DENM)));
            default -> {
                var again = MESSAGES.enrolment(station, EA, NOW.plusSeconds(1));
                assertThat(MESSAGES.readEnrolment(ea.enrolment.enrol(again.body()), again, EA).ok()).isTrue();
            }
        }

        assertRefused(next, change.equals("SUPERSEDED") ? EtsiCodes.Validation.UNKNOWNITS : EtsiCodes.Validation.DENIEDPERMISSIONS);
    }

    /**
     * The access point answers on its event loop only when nothing has to be read from Redis: the EC and station
     * records are kept from an earlier validation and no write to them began since; otherwise on a worker thread.
     */
    @Test
    void aValidation_readsRedis_andGoesToAWorker_onlyWhenItsRecordsAreNotKept() {
        SimulatedStation station = ea.enrolled("VIN-KEPT", EtsiCurve.NIST_P256);
        List<Runnable> toWorkers = new java.util.ArrayList<>();
        java.util.concurrent.Executor workers = work -> {
            toWorkers.add(work);
            work.run();
        };

        OutgoingRequest first = forwarded(station, EA, List.of(CAM), Protection.FULL);
        var notKept = ea.validation.begin(first.body());
        assertThat(notKept.readsStore()).isTrue();
        assertThat(aa.read(EaAccessPoints.answer(notKept, workers).join(), first, EA).responseCode()).isEqualTo(EtsiCodes.Validation.OK);
        assertThat(toWorkers).hasSize(1);

        OutgoingRequest second = forwarded(station, EA, List.of(CAM), Protection.FULL);
        var kept = ea.validation.begin(second.body());
        assertThat(kept.readsStore()).isFalse();
        assertThat(aa.read(EaAccessPoints.answer(kept, workers).join(), second, EA).responseCode()).isEqualTo(EtsiCodes.Validation.OK);
        assertThat(toWorkers).as("answered on the caller's thread").hasSize(1);

        ea.setStatus(station, StationStatus.SUSPENDED);
        OutgoingRequest third = forwarded(station, EA, List.of(CAM), Protection.FULL);
        var changed = ea.validation.begin(third.body());
        assertThat(changed.readsStore()).as("a write to its records began since").isTrue();
        assertThat(aa.read(EaAccessPoints.answer(changed, workers).join(), third, EA).responseCode())
                .isEqualTo(EtsiCodes.Validation.DENIEDPERMISSIONS);
        assertThat(toWorkers).hasSize(2);

        // refused before its records are needed (it names another EA): nothing to read
        OutgoingRequest wrongEa = forwarded(station, new TestPki(EtsiCurve.NIST_P256).ea, List.of(CAM), new Protection(true, false));
        assertThat(ea.validation.begin(wrongEa.body()).readsStore()).isFalse();
    }

    @Test
    void replicaOutOfService_decidesNothing_noEtsiAnswer_butAServerSideFailure_forTheAaToAskAnotherReplica() {
        SimulatedStation station = ea.enrolled("VIN-OUT", EtsiCurve.NIST_P256);
        OutgoingRequest toEa = forwarded(station, EA, List.of(CAM), Protection.FULL);
        ea.replica.close(); // out of service like a minority or a FAILED replica: ReplicaStatus not SERVING
        String before = ea.replica.stateDigest();

        try (LogCapture log = LogCapture.of(AuthorizationValidationService.class)) {
            assertThatThrownBy(() -> ea.validation.validate(toEa.body()))
                    .isInstanceOfSatisfying(PkiException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.REPLICATION_UNAVAILABLE);
                        assertThat(e.code().serverSide()).isTrue();
                    });
            assertThat(log.events(ch.qos.logback.classic.Level.WARN)).singleElement()
                    .satisfies(e -> assertThat(e.getFormattedMessage()).contains("REPLICATION_UNAVAILABLE", "CLOSED", "another replica"));
        }
        assertThat(ea.replica.stateDigest()).isEqualTo(before);
    }

    @Test
    void supersededEc_isUnknown() {
        SimulatedStation station = ea.enrolled("VIN-SUPER", EtsiCurve.NIST_P256);
        OutgoingRequest withOldEc = forwarded(station, EA, List.of(CAM), Protection.FULL);
        var again = MESSAGES.enrolment(station, EA, NOW.plusSeconds(1));
        assertThat(MESSAGES.readEnrolment(ea.enrolment.enrol(again.body()), again, EA).ok()).isTrue();
        assertRefused(withOldEc, EtsiCodes.Validation.UNKNOWNITS);
    }

    @Test
    void ecNotIssuedByThisEa_isUnknown() {
        // same EA certificate, but the EC was never stored by this EA's replicas
        SimulatedStation station;
        try (RedisFixture otherRedis = RedisFixture.start(); EaCoreFixture elsewhere = new EaCoreFixture(otherRedis)) {
            station = elsewhere.enrolled("VIN-FOREIGN", EtsiCurve.NIST_P256);
        }
        OutgoingRequest toEa = forwarded(station, EA, List.of(CAM), Protection.FULL);
        assertRefused(toEa, EtsiCodes.Validation.UNKNOWNITS);
    }

    @Test
    void aaNotInTheCtl_isInvalidAa() {
        SimulatedStation station = ea.enrolled("VIN-NOCTL", EtsiCurve.NIST_P256);
        AuthorizationValidationService strict = new AuthorizationValidationService(ea.identity, ea.fleet, id -> Optional.empty(),
                ea.clock, new SecureRandom(), ea.audit, new SimpleMeterRegistry());
        OutgoingRequest toEa = forwarded(station, EA, List.of(CAM), Protection.FULL);
        var result = aa.read(strict.validate(toEa.body()), toEa, EA);
        assertThat(result.responseCode()).isEqualTo(EtsiCodes.Validation.INVALIDAA);
    }

    @Test
    void requestNamingAnotherEa_isWrongEa() {
        TestPki other = new TestPki(EtsiCurve.NIST_P256);
        SimulatedStation station = ea.enrolled("VIN-WRONGEA", EtsiCurve.NIST_P256);
        // the station names another EA (plain EC signature, so that this EA can still read it)
        OutgoingRequest toEa = forwarded(station, other.ea, List.of(CAM), new Protection(true, false));
        assertRefused(toEa, EtsiCodes.Validation.WRONGEA);
    }

    @Test
    void garbage_isUndecryptable() {
        assertThatThrownBy(() -> ea.validation.validate(new byte[64])).isInstanceOfSatisfying(UndecryptableRequestException.class,
                e -> assertThat(e.code()).isIn(ErrorCode.MALFORMED_ENCODING, ErrorCode.UNEXPECTED_CONTENT));
    }

    /** The validation request the AA forwards to this EA for an AT request of {@code station} naming {@code namedEa}. */
    private OutgoingRequest forwarded(SimulatedStation station, EtsiCertificate namedEa, List<PsidSsp> permissions, Protection protection) {
        return aa.forward(MESSAGES.authorization(station, namedEa, PKI.aa, permissions, protection, NOW), EA, NOW);
    }

    /** Refused with {@code code}, state unchanged, and the refusal logged at INFO with the ETSI code's name. */
    private void assertRefused(OutgoingRequest toEa, int code) {
        String before = ea.replica.stateDigest();
        try (LogCapture log = LogCapture.of(AuthorizationValidationService.class)) {
            var result = aa.read(ea.validation.validate(toEa.body()), toEa, EA);
            assertThat(result.responseCode()).isEqualTo(code);
            assertThat(result.confirmed()).isEmpty();
            assertThat(ea.replica.stateDigest()).isEqualTo(before);
            assertThat(log.events(ch.qos.logback.classic.Level.INFO)).singleElement().satisfies(e -> {
                assertThat(e.getLevel()).isEqualTo(ch.qos.logback.classic.Level.INFO);
                assertThat(e.getFormattedMessage())
                        .startsWith("authorization validation refused with " + EtsiCodes.validationName(code) + " (");
            });
        }
    }
}
