package eu.vpki.ea.core;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.fleet.FleetCommands;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.fleet.VersionClock;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.testing.RecordingAuditLog;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import eu.vpki.ea.testing.TestReplicas;
import eu.vpki.shell.replay.CaffeineReplayCache;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import redis.clients.jedis.JedisPool;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One EA core on a one-member replica with its own Redis, a fixed clock and a TestPki. */
final class EaCoreFixture implements AutoCloseable {
    static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    /** The requests of the stations the tests drive (the one simulated station of the station module). */
    static final StationMessages MESSAGES = new StationMessages(TestPki.RANDOM, new DataEncryption(TestPki.RANDOM));

    final Clock clock = Clock.fixed(TestPki.NOW, ZoneOffset.UTC);
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final JedisPool pool;
    final Replica replica;
    final FleetState fleet;
    final EaIdentity identity;
    final RecordingAuditLog audit = new RecordingAuditLog();
    final CaffeineReplayCache replays = new CaffeineReplayCache("ea-enrolment", EaSettings.DEFAULTS.requestWindow()
            .plus(EaSettings.DEFAULTS.clockSkew()), 10_000, CaffeineReplayCache.WhenFull.REFUSE, clock, registry);
    final EnrolmentService enrolment;
    final AuthorizationValidationService validation;
    private final VersionClock versions = new VersionClock(clock);

    EaCoreFixture(RedisFixture redis) {
        this(redis, PKI);
    }

    /** An EA of {@code pki} (its EA certificate and keys; its AA is the only one the validation endpoint knows). */
    EaCoreFixture(RedisFixture redis, TestPki pki) {
        identity = new EaIdentity(pki.ea, pki.eaSigner(), pki.eaEncKey);
        pool = redis.newPool();
        replica = TestReplicas.single(pool, clock, registry);
        fleet = FleetState.withEcCache(pool, replica, 64); // as deployed (vpki.ea.ec-cache-entries)
        SecureRandom random = new SecureRandom();
        enrolment = new EnrolmentService(identity, fleet, replica, clock, random, EaSettings.DEFAULTS, replays, audit, registry);
        validation = new AuthorizationValidationService(identity, fleet,
                id -> Optional.ofNullable(Map.of(pki.aa.hashedId8(), pki.aa).get(id)), clock, random, audit, registry);
    }

    /** The enrolment service of another replica over the same (applied) fleet state: its own local replay cache. */
    EnrolmentService anotherReplica() {
        CaffeineReplayCache own = new CaffeineReplayCache("ea-enrolment-other", EaSettings.DEFAULTS.requestWindow()
                .plus(EaSettings.DEFAULTS.clockSkew()), 10_000, CaffeineReplayCache.WhenFull.REFUSE, clock, registry);
        return new EnrolmentService(identity, fleet, replica, clock, new SecureRandom(), EaSettings.DEFAULTS, own, audit, registry);
    }

    /** The record operator {@code operatorId} registers for {@code station}: CAM and DENM permitted, one year of EC. */
    static StationRecord registration(String operatorId, SimulatedStation station) {
        return new StationRecord(operatorId, station.canonicalId(), station.canonicalKey().publicKey(), SimulatedStation.CAM_DENM,
                Duration.ofDays(365), null, StationStatus.ACTIVE, 0);
    }

    /** Registers {@code station} for operator "op-1" ({@link #registration}). */
    void register(SimulatedStation station) {
        register(registration("op-1", station));
    }

    /** Registers a station as its operator would (one replicated command). */
    void register(StationRecord station) {
        replica.submit(FleetCommands.register(station.operatorId(), List.of(station.withVersion(versions.next())))).join();
    }

    void setStatus(SimulatedStation station, StationStatus status) {
        StationRecord current = fleet.station(station.canonicalId()).orElseThrow();
        replica.submit(FleetCommands.changeStatus(current.withStatus(status, versions.nextAbove(current.version())))).join();
    }

    void setPermissions(SimulatedStation station, List<eu.vpki.common.etsi.ts103097.PsidSsp> permissions) {
        StationRecord current = fleet.station(station.canonicalId()).orElseThrow();
        replica.submit(FleetCommands.changePermissions(current.withPermissions(permissions,
                versions.nextAbove(current.permissionsVersion())))).join();
    }

    /** Registers and enrols a station; returns it with its EC. */
    SimulatedStation enrolled(String id, EtsiCurve curve) {
        SimulatedStation station = SimulatedStation.generate(id, curve, TestPki.RANDOM);
        register(station);
        var request = MESSAGES.enrolment(station, PKI.ea, TestPki.NOW);
        var result = MESSAGES.readEnrolment(enrolment.enrol(request.body()), request, PKI.ea);
        if (!result.ok()) {
            throw new IllegalStateException("enrolment failed with " + result.responseCode());
        }
        return station;
    }

    @Override
    public void close() {
        replica.close();
        pool.close();
    }
}
