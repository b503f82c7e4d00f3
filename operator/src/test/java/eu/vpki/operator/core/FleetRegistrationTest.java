package eu.vpki.operator.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.FieldError;
import eu.vpki.common.error.InvalidInputException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.fleet.VersionClock;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicationConfig;
import eu.vpki.common.testing.RecordingAuditLog;
import eu.vpki.common.testing.RedisFixtureExtension;
import eu.vpki.common.testing.TestPorts;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.JedisPool;

import java.io.IOException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Operator core against a real one-member replica and its Redis, with a fixed clock. */
class FleetRegistrationTest {
    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Clock clock = Clock.fixed(Instant.parse("2026-11-20T12:00:00Z"), ZoneOffset.UTC);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final RecordingAuditLog audit = new RecordingAuditLog();
    private JedisPool pool;
    private Replica replica;
    private FleetState fleet;
    private FleetRegistration registration;
    private StationAdministration administration;

    @BeforeEach
    void start() throws IOException {
        pool = REDIS.fixture().newPool();
        int port = TestPorts.free();
        replica = new Replica(new ReplicationConfig("op-test-" + port, "op-1", ReplicationConfig.Order.TOTAL,
                ReplicationConfig.Propagation.SYNC, "127.0.0.1", port, new ReplicationConfig.Discovery.TcpPing("127.0.0.1[" + port + "]"),
                1,
                new ReplicationConfig.Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofMillis(300),
                        Duration.ofSeconds(5))),
                FleetKeys.KEYSPACE, pool, clock, registry);
        replica.connect();
        fleet = new FleetState(pool, replica::status);
        OperatorSettings settings = new OperatorSettings(3, Duration.ofMillis(200), Duration.ofSeconds(5));
        ReadYourWrites rw = new ReadYourWrites(replica, settings);
        VersionClock versions = new VersionClock(clock);
        registration = new FleetRegistration(fleet, rw, versions, settings, audit);
        administration = new StationAdministration(fleet, rw, versions, audit);
    }

    @AfterEach
    void stop() {
        replica.close();
        pool.close();
    }

    static Inputs.Station station(String id, EtsiCurve curve) {
        String key = HexFormat.of().formatHex(EtsiKeyPair.generate(curve, RANDOM).publicKey().uncompressed());
        return new Inputs.Station(id, curve.name(), key, List.of(new Inputs.Permission(36L, "bitmap", "01fffc")), "P365D",
                new Inputs.Region(List.of(276), null));
    }

    @Test
    void batch_isAppliedAsOneReplicatedCommand() {
        Inputs.WriteResult result = registration.register("op-1", new Inputs.Batch(List.of(station("A", EtsiCurve.NIST_P256),
                station("B", EtsiCurve.BRAINPOOL_P256R1), station("C", EtsiCurve.BRAINPOOL_P384R1))));

        assertThat(result.canonicalIds()).containsExactly("A", "B", "C");
        assertThat(result.version()).isEqualTo("1@" + replica.origin()).contains("@op-1~");
        assertThat(registry.get("vpki.replication.commands").tag("outcome", "applied").counter().count()).isEqualTo(1);
        assertThat(fleet.fleet("op-1")).containsExactly("A", "B", "C");
        assertThat(fleet.station("C").orElseThrow().canonicalKey().curve()).isEqualTo(EtsiCurve.BRAINPOOL_P384R1);
        assertThat(administration.read("op-1", "B", result.version()).region().countries()).containsExactly(276);
        assertThat(audit.lines()).containsExactly("stations-registered operator=op-1 count=3 command=" + result.version());
    }

    @Test
    void batchWithOneBadStation_appliesNothingAndNamesEveryBadField() {
        Inputs.Station bad = new Inputs.Station("B", "nistP256", "04" + "00".repeat(64), List.of(new Inputs.Permission(999L, null, null)),
                "PT30M", null);
        String before = replica.stateDigest();

        assertThatThrownBy(() -> registration.register("op-1", new Inputs.Batch(List.of(station("A", EtsiCurve.NIST_P256), bad))))
                .isInstanceOfSatisfying(InvalidInputException.class,
                        e -> assertThat(e.errors()).extracting(FieldError::field, FieldError::code)
                                .containsExactly(
                                        org.assertj.core.groups.Tuple.tuple("stations[1].publicKey", ErrorCode.INVALID_KEY),
                                        org.assertj.core.groups.Tuple.tuple("stations[1].permissions[0].psid", ErrorCode.UNKNOWN_PSID),
                                        org.assertj.core.groups.Tuple.tuple("stations[1].maxEcValidity", ErrorCode.VALIDITY_NOT_ALLOWED)));
        assertThat(replica.stateDigest()).isEqualTo(before);
        assertThat(fleet.station("A")).isEmpty();
        assertThat(audit.lines()).as("nothing written, nothing audited").isEmpty();
    }

    @Test
    void sspOutsideTheAaRange_isRefused() {
        Inputs.Station s = new Inputs.Station("S", "brainpoolP256r1",
                HexFormat.of().formatHex(EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM).publicKey().compressed()),
                List.of(new Inputs.Permission(36L, "bitmap", "02fffc")), "P30D", null);
        assertThatThrownBy(() -> registration.register("op-1", new Inputs.Batch(List.of(s))))
                .isInstanceOfSatisfying(InvalidInputException.class,
                        e -> assertThat(e.errors().get(0).code()).isEqualTo(ErrorCode.PERMISSIONS_EXCEED_ISSUER));
    }

    @Test
    void duplicateIds_inTheBatchOrAlreadyRegistered_areRefused() {
        assertThatThrownBy(() -> registration.register("op-1", new Inputs.Batch(List.of(station("D", EtsiCurve.NIST_P256),
                station("D", EtsiCurve.NIST_P256))))).isInstanceOfSatisfying(InvalidInputException.class,
                        e -> assertThat(e.errors()).extracting(FieldError::field).containsExactly("stations[1].canonicalId"));
        registration.register("op-1", new Inputs.Batch(List.of(station("D", EtsiCurve.NIST_P256))));
        assertThatThrownBy(() -> registration.register("op-2", new Inputs.Batch(List.of(station("D", EtsiCurve.NIST_P256)))))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DUPLICATE_ID));
        assertThat(fleet.fleet("op-2")).isEmpty();
    }

    @Test
    void oversizeBatch_isRefused() {
        List<Inputs.Station> four = List.of(station("1", EtsiCurve.NIST_P256), station("2", EtsiCurve.NIST_P256),
                station("3", EtsiCurve.NIST_P256), station("4", EtsiCurve.NIST_P256));
        assertThatThrownBy(() -> registration.register("op-1", new Inputs.Batch(four)))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.OVERSIZE_INPUT);
                    assertThat(e.errors().get(0).field()).isEqualTo("stations");
                });
    }

    @Test
    void statusChanges_followTheLifeCycle_andOtherOperatorsSeeNothing() {
        registration.register("op-1", new Inputs.Batch(List.of(station("E", EtsiCurve.NIST_P256))));

        administration.changeStatus("op-1", "E", StationStatus.SUSPENDED);
        administration.changeStatus("op-1", "E", StationStatus.ACTIVE);
        Inputs.WriteResult revoked = administration.changeStatus("op-1", "E", StationStatus.REVOKED);

        assertThat(administration.read("op-1", "E", revoked.version()).status()).isEqualTo("REVOKED");
        assertThat(audit.lines()).hasSize(4).last().isEqualTo("station-changed operator=op-1 station=E status=REVOKED command="
                + revoked.version());
        assertThatThrownBy(() -> administration.changeStatus("op-1", "E", StationStatus.ACTIVE))
                .isInstanceOfSatisfying(eu.vpki.common.error.PkiException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_STATE_TRANSITION));
        assertThatThrownBy(() -> administration.read("op-2", "E", null))
                .isInstanceOfSatisfying(eu.vpki.common.error.PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThatThrownBy(() -> administration.changeStatus("op-2", "E", StationStatus.SUSPENDED))
                .isInstanceOfSatisfying(eu.vpki.common.error.PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }

    @Test
    void permissionChange_replacesThePermissions() {
        registration.register("op-1", new Inputs.Batch(List.of(station("P", EtsiCurve.NIST_P256))));
        Inputs.WriteResult w = administration.changePermissions("op-1", "P", new Inputs.PermissionChange(List.of(
                new Inputs.Permission(37L, "bitmap", "01ffffff"), new Inputs.Permission(141L, null, null))));
        assertThat(administration.read("op-1", "P", w.version()).permissions()).extracting(Inputs.Permission::psid).containsExactly(37L,
                141L);
    }

    @Test
    void readWithAVersionNeverApplied_failsAfterTheBoundedWait() {
        assertThatThrownBy(() -> administration.list("op-1", "99@elsewhere", null, null))
                .isInstanceOfSatisfying(eu.vpki.common.error.PkiException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.VERSION_NOT_YET_APPLIED));
        assertThatThrownBy(() -> administration.list("op-1", "garbage", null, null))
                .isInstanceOfSatisfying(InvalidInputException.class,
                        e -> assertThat(e.errors().get(0).field()).isEqualTo("X-Vpki-Version"));
    }
}
