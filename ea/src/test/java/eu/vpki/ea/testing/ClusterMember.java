package eu.vpki.ea.testing;

import eu.vpki.common.etsi.crypto.DeploymentCredentials;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.VersionClock;
import eu.vpki.common.replication.OriginCredentials;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicationConfig;
import eu.vpki.common.testing.RecordingAuditLog;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.ea.core.AuthorizationValidationService;
import eu.vpki.ea.core.EaIdentity;
import eu.vpki.ea.core.EaSettings;
import eu.vpki.ea.core.EnrolmentService;
import eu.vpki.operator.core.FleetRegistration;
import eu.vpki.operator.core.OperatorSettings;
import eu.vpki.operator.core.ReadYourWrites;
import eu.vpki.operator.core.StationAdministration;
import eu.vpki.shell.replay.CaffeineReplayCache;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import redis.clients.jedis.JedisPool;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One replica of the cluster tests: its own Redis, a real JGroups replica, and on top of it both an
 * EA core and an Operator core (in a deployment they are separate processes, each with its own
 * replica and Redis; here they share one member to keep three members per test on two cores).
 */
public final class ClusterMember implements AutoCloseable {
    public final String id;
    public final JedisPool pool;
    public final Replica replica;
    public final FleetState fleet;
    public final EnrolmentService enrolment;
    public final AuthorizationValidationService validation;
    public final FleetRegistration registration;
    public final StationAdministration administration;
    public final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** What the EA and Operator cores of this member audited. */
    public final RecordingAuditLog audit = new RecordingAuditLog();

    public ClusterMember(ReplicationConfig config, RedisFixture redis, TestPki pki, Clock clock) {
        this(config, redis, pki, clock, UnaryOperator.identity());
    }

    /**
     * @param eaSigner wraps the EA's signer (a test that must hold an enrolment between its read of the fleet state and
     *                 its command: the EC's signature comes between them)
     */
    public ClusterMember(ReplicationConfig config, RedisFixture redis, TestPki pki, Clock clock, UnaryOperator<EtsiSigner> eaSigner) {
        this.id = config.replicaId();
        this.pool = redis.newPool();
        this.replica = new Replica(config, FleetKeys.KEYSPACE, pool, clock, registry, originCredentials(config.tls()));
        this.fleet = new FleetState(pool, replica::status);
        SecureRandom random = new SecureRandom();
        EaIdentity identity = new EaIdentity(pki.ea, eaSigner.apply(pki.eaSigner()), pki.eaEncKey);
        CaffeineReplayCache replays = new CaffeineReplayCache("ea-enrolment", EaSettings.DEFAULTS.requestWindow()
                .plus(EaSettings.DEFAULTS.clockSkew()), 100_000, CaffeineReplayCache.WhenFull.REFUSE, clock, registry);
        this.enrolment = new EnrolmentService(identity, fleet, replica, clock, random, EaSettings.DEFAULTS, replays, audit, registry);
        this.validation = new AuthorizationValidationService(identity, fleet,
                aa -> Optional.ofNullable(Map.of(pki.aa.hashedId8(), pki.aa).get(aa)), clock, random, audit, registry);
        OperatorSettings settings = new OperatorSettings(1_000, Duration.ofSeconds(5), Duration.ofSeconds(10));
        ReadYourWrites rw = new ReadYourWrites(replica, settings);
        VersionClock versions = new VersionClock(clock);
        this.registration = new FleetRegistration(fleet, rw, versions, settings, audit);
        this.administration = new StationAdministration(fleet, rw, versions, audit);
    }

    /** With TLS, the replica signs its commands with the key of its TLS key store, as a deployed replica does; null without. */
    private static OriginCredentials originCredentials(ReplicationConfig.Tls tls) {
        return tls.enabled()
                ? DeploymentCredentials.read(tls.keyStore(), tls.keyStorePassword().toCharArray(), tls.trustStore(),
                        tls.trustStorePassword().toCharArray(), new SecureRandom())
                : null;
    }

    public ClusterMember connect() {
        replica.connect();
        return this;
    }

    @Override
    public void close() {
        replica.close();
        pool.close();
    }
}
