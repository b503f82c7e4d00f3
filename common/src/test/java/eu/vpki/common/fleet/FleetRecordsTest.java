package eu.vpki.common.fleet;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.GeographicRegion;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.replication.Operation;
import eu.vpki.common.replication.StoredRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FleetRecordsTest {
    private static final PsidSsp CAM = PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc);

    @ParameterizedTest
    @EnumSource(EtsiCurve.class)
    void stationRecord_roundTripsThroughItsStoredFields(EtsiCurve curve) {
        StationRecord station = new StationRecord("op-1", "VIN-1", EtsiKeyPair.generate(curve, TestPki.RANDOM).publicKey(),
                List.of(CAM, PsidSsp.of(Psids.GN_MGMT), PsidSsp.opaque(Psids.SECURED_CERTIFICATE_REQUEST, (byte) 1)),
                Duration.ofHours(48), new GeographicRegion.Circular(485_000_000L, 90_000_000L, 5_000), StationStatus.SUSPENDED, 0);
        Map<String, String> stored = new java.util.HashMap<>(station.fields());
        stored.put(StoredRecord.VERSION_FIELD, "42");
        stored.put(StoredRecord.ORIGIN_FIELD, "r1");

        assertThat(StationRecord.from(StoredRecord.from(stored).orElseThrow(), Optional.empty(), RecordDecoding.uncached()))
                .isEqualTo(station.withVersion(42));

        Map<String, String> register = new java.util.HashMap<>(station.withPermissions(List.of(CAM), 50).permissionsFields());
        register.put(StoredRecord.VERSION_FIELD, "50");
        register.put(StoredRecord.ORIGIN_FIELD, "r2");
        assertThat(StationRecord.from(StoredRecord.from(stored).orElseThrow(), StoredRecord.from(register), RecordDecoding.uncached()))
                .as("the permissions register, when there is one, holds the permissions")
                .isEqualTo(station.withVersion(42).withPermissions(List.of(CAM), 50));
    }

    @Test
    void regions_roundTrip() {
        for (GeographicRegion r : List.of(new GeographicRegion.Countries(List.of(276, 250)),
                new GeographicRegion.Rectangular(List.of(new GeographicRegion.Rectangle(10, 1, 5, 6))))) {
            assertThat(Regions.decode(Regions.encode(r))).isEqualTo(r);
        }
        assertThat(Regions.decode(Regions.encode(null))).isNull();
    }

    @Test
    void permissions_allowOnlyWhatIsNoMoreThanPermitted() {
        List<PsidSsp> permitted = List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x80, (byte) 0x00));
        assertThat(Permissions.allows(permitted, PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x80, (byte) 0x00))).isTrue();
        assertThat(Permissions.allows(permitted, PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0x00, (byte) 0x00))).isTrue();
        assertThat(Permissions.allows(permitted, PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xC0, (byte) 0x00))).isFalse();
        assertThat(Permissions.allows(permitted, PsidSsp.bitmap(Psids.CAM, (byte) 0x02, (byte) 0x80, (byte) 0x00))).as("version byte")
                .isFalse();
        assertThat(Permissions.allows(permitted, PsidSsp.of(Psids.CAM))).isFalse();
        assertThat(Permissions.allows(permitted, PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0, (byte) 0, (byte) 0))).isFalse();
    }

    @Test
    void permissions_registrableOnlyWithinTheAaRanges() {
        Permissions.requireRegistrable(List.of(CAM, PsidSsp.of(Psids.SECURED_CERTIFICATE_REQUEST)));
        assertThatThrownBy(() -> Permissions.requireRegistrable(List.of(PsidSsp.of(4242))))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_PSID));
        assertThatThrownBy(() -> Permissions.requireRegistrable(List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x02, (byte) 0xff, (byte) 0xfc))))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSIONS_EXCEED_ISSUER));
        assertThatThrownBy(() -> Permissions.requireRegistrable(List.of(CAM, CAM)))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DUPLICATE_ID));
        assertThat(Permissions.decode(Permissions.encode(List.of(CAM, PsidSsp.of(141), PsidSsp.opaque(623, (byte) 7)))))
                .containsExactly(CAM, PsidSsp.of(141), PsidSsp.opaque(623, (byte) 7));
    }

    @Test
    void versionClock_isMonotonicAndAboveWhatWasRead() {
        VersionClock clock = new VersionClock(Clock.fixed(TestPki.NOW, ZoneOffset.UTC));
        long first = clock.next();
        assertThat(first).isEqualTo(TestPki.NOW.toEpochMilli() * 1_000);
        assertThat(clock.next()).isEqualTo(first + 1);
        assertThat(clock.nextAbove(first + 1_000_000)).isEqualTo(first + 1_000_001);
    }

    @Test
    void enrolledCommand_writesEcPointerAndSupersession() {
        TestPki pki = new TestPki(EtsiCurve.NIST_P256);
        EcRecord old = new EcRecord(pki.issueEc(EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM)), "VIN-1", EcRecord.Status.ACTIVE,
                5);
        EcRecord issued = new EcRecord(pki.issueEc(EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM)), "VIN-1",
                EcRecord.Status.ACTIVE, 9);
        List<Operation> ops = FleetCommands.enrolled(issued, Optional.of(old.superseded(10)));
        assertThat(ops).extracting(Operation::key).containsExactly(FleetKeys.ec(issued.id()), FleetKeys.stationEc("VIN-1"),
                FleetKeys.ec(old.id()));
        assertThat(ops).allSatisfy(op -> assertThat(FleetKeys.KEYSPACE.isManaged(op.key())).isTrue());
        Operation.PutIfNewer supersede = (Operation.PutIfNewer) ops.get(2);
        assertThat(supersede.version()).isEqualTo(10);
        assertThat(supersede.fields()).containsEntry("status", "SUPERSEDED");
        assertThat(supersede.terminal()).as("a superseded EC never becomes active again").isTrue();
        assertThat(((Operation.PutIfNewer) ops.get(0)).terminal()).isFalse();
    }

    @Test
    void statusChange_writesTheStationRecordOnly_terminalForARevokedStationOnly() {
        StationRecord station = new StationRecord("op-1", "VIN-1", EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM).publicKey(),
                List.of(CAM), Duration.ofHours(48), null, StationStatus.ACTIVE, 7);
        for (StationStatus status : StationStatus.values()) {
            List<Operation> ops = FleetCommands.changeStatus(station.withStatus(status, 8));
            assertThat(ops).extracting(Operation::key).containsExactly(FleetKeys.station("VIN-1"));
            Operation.PutIfNewer update = (Operation.PutIfNewer) ops.get(0);
            assertThat(update.version()).isEqualTo(8);
            assertThat(update.terminal()).as(status.name()).isEqualTo(status == StationStatus.REVOKED);
        }
    }

    @Test
    void permissionChange_writesThePermissionsRegisterOnly() {
        StationRecord station = new StationRecord("op-1", "VIN-1", EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM).publicKey(),
                List.of(CAM), Duration.ofHours(48), null, StationStatus.ACTIVE, 7);
        List<Operation> ops = FleetCommands.changePermissions(station.withPermissions(List.of(PsidSsp.of(Psids.DENM)), 9));
        assertThat(ops).extracting(Operation::key).containsExactly(FleetKeys.stationPermissions("VIN-1"));
        assertThat(FleetKeys.KEYSPACE.isManaged(ops.get(0).key())).isTrue();
        Operation.PutIfNewer put = (Operation.PutIfNewer) ops.get(0);
        assertThat(put.version()).isEqualTo(9);
        assertThat(put.fields()).containsOnlyKeys("permissions");
        assertThat(put.terminal()).isFalse();
        assertThatThrownBy(() -> FleetCommands.changePermissions(station)).as("no permissions version")
                .isInstanceOf(IllegalArgumentException.class);
    }
}
