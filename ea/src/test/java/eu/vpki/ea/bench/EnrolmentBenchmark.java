package eu.vpki.ea.bench;

import eu.vpki.station.load.LoadModel;
import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.Outcome;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.common.etsi.crypto.DeploymentCa;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.replication.ReplicationConfig;
import eu.vpki.common.replication.ReplicationConfig.Order;
import eu.vpki.common.replication.ReplicationConfig.Propagation;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.ea.testing.ClusterMember;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import eu.vpki.ea.testing.TestReplicas;
import eu.vpki.operator.core.Inputs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Drives enrolments against three in-process EA replicas (real JGroups over loopback TCP, one real
 * redis-server each) and reports EC/s and latency. Station-side work (key generation, signing,
 * ECIES) is done before the timed phase, so only the EA is measured; responses are decrypted and
 * checked after it. Not a test: run it by hand (see docs/benchmarks.md).
 *
 * <p>Arguments: {@code [requests per mode, default 30000: a timed pass of about 13 s on two cores] [client threads, default 4]}. System properties:
 * {@code bench.curve} (nistP256; or brainpoolP256r1, brainpoolP384r1: the RCA's and EA's signing keys),
 * {@code bench.station-curve} (the stations' keys; default {@code bench.curve}), {@code bench.warmup-seconds} (40, crypto-only JIT warm-up), {@code bench.warmup-passes} (2 unreported
 * replicated passes per mode before the measured ones), {@code bench.apply-grouping} (the replicas'
 * apply grouping as an ISO-8601 duration, default PT0.002S; PT0S turns it off) and {@code bench.modes}
 * (the modes measured, in order: {@code FIFO+ASYNC,TOTAL+SYNC} by default, {@code all} for the four),
 * {@code bench.replication-tls} ({@code true}, as deployed: mutual TLS of the JGroups transport, each
 * replica with its own key store issued by a {@link DeploymentCa} made for the run, and every command and
 * every other replication message signed by its origin with that key and checked by each replica; {@code false}:
 * the bare channel, to see what TLS and signing cost).
 */
public final class EnrolmentBenchmark {
    /** Curve of the RCA's and EA's signing keys (encryption key: the same, or nistP256 for brainpoolP384r1, as TestPki does). */
    private static final EtsiCurve CURVE = EtsiCurve.parse(System.getProperty("bench.curve", "nistP256"));
    /** Curve of the stations' keys (canonical and EC). */
    private static final EtsiCurve STATION_CURVE = EtsiCurve.parse(System.getProperty("bench.station-curve", CURVE.curveName()));
    private static final TestPki PKI = new TestPki(CURVE);
    private static final StationMessages MESSAGES = new StationMessages(TestPki.RANDOM, new DataEncryption(TestPki.RANDOM));
    /** Seconds of crypto-only work before the first measurement, for the JIT. */
    private static final int WARMUP_SECONDS = Integer.getInteger("bench.warmup-seconds", 40);
    /** Unreported replicated passes per mode before the measured ones, for the JIT. */
    private static final int WARMUP_PASSES = Integer.getInteger("bench.warmup-passes", 2);
    /** {@code vpki.replication.apply-grouping} of the replicas (used in ASYNC only). */
    private static final Duration APPLY_GROUPING = Duration.parse(System.getProperty("bench.apply-grouping",
            ReplicationConfig.DEFAULT_APPLY_GROUPING.toString()));
    private static final Clock CLOCK = Clock.offset(Clock.systemUTC(), Duration.between(Instant.now(), TestPki.NOW));
    /** Whether the replicas' JGroups transport runs mutual TLS and their messages are signed (issue #18). */
    private static final boolean REPLICATION_TLS = Boolean.parseBoolean(System.getProperty("bench.replication-tls", "true"));
    private static final String TLS_PASSWORD = "bench-replication-tls";
    /** {@code order+propagation} pairs measured, in order. */
    private static final List<String> MODES = System.getProperty("bench.modes", "FIFO+ASYNC,TOTAL+SYNC").equals("all")
            ? List.of("FIFO+ASYNC", "TOTAL+SYNC", "FIFO+SYNC", "TOTAL+ASYNC")
            : List.of(System.getProperty("bench.modes", "FIFO+ASYNC,TOTAL+SYNC").split(","));

    private EnrolmentBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 30_000;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        System.out.printf(
                "cores %d, requests %d, client threads %d, apply grouping %s, replication TLS %s, authorities on %s, stations on %s, GC %s%ncrypto: %s%n",
                Runtime.getRuntime().availableProcessors(), requests, threads, APPLY_GROUPING,
                REPLICATION_TLS ? "on (mutual TLS, DeploymentCa key stores, messages signed)" : "off", CURVE.curveName(),
                STATION_CURVE.curveName(), java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .map(java.lang.management.GarbageCollectorMXBean::getName).toList(),
                eu.vpki.common.etsi.crypto.CryptoBackend.description());
        List<RedisFixture> redis = List.of(RedisFixture.start(), RedisFixture.start(), RedisFixture.start());
        try {
            // JIT warm-up on the EA's crypto path before anything is measured: C2 compiling
            // BouncyCastle's field arithmetic otherwise takes a quarter of the machine for the
            // first half minute and is charged to whichever phase runs first
            ceiling(Math.min(requests, 3_000), threads, Duration.ofSeconds(WARMUP_SECONDS), false);
            // and on the replicated path (JGroups, Jedis, appliers), which kept C2 busy for another
            // 20 to 40 s: two unreported passes per mode (after one, C2 still took 0.15 of a core)
            for (int pass = 0; pass < WARMUP_PASSES; pass++) {
                for (String mode : MODES) {
                    run(order(mode), propagation(mode), redis, requests, threads, false);
                }
            }
            for (String mode : MODES) {
                run(order(mode), propagation(mode), redis, requests, threads, true);
            }
            ceiling(requests, threads, Duration.ZERO, true); // last: same JIT state as the replicated runs
            ceiling(requests, 1, Duration.ZERO, true);
        } finally {
            redis.forEach(RedisFixture::stop);
        }
    }

    /**
     * Start of the replication certificates' validity: they must be valid at the replicas' clock ({@link #CLOCK},
     * TestPki's time), which checks each signed message's origin time, and at the real time of the TLS handshakes.
     */
    private static final Instant TLS_FROM = TestPki.NOW.minus(Duration.ofDays(1));

    private static Duration tlsValidity() {
        return Duration.between(TLS_FROM, Instant.now()).plusDays(1);
    }

    private static Path tlsDir;
    private static DeploymentCa deploymentCa;

    /** Replica {@code id}'s key store of the run's deployment CA (made on first use) and the CA's trust store. */
    private static synchronized ReplicationConfig.Tls replicaTls(String id) throws IOException {
        if (deploymentCa == null) {
            tlsDir = eu.vpki.common.testing.ExitDeletedDirectory.create("vpki-bench-replication-tls-");
            deploymentCa = DeploymentCa.generate("vpki benchmark deployment CA", TLS_FROM, tlsValidity(), new SecureRandom());
            deploymentCa.writeTrustStore(tlsDir.resolve("trust.p12"), TLS_PASSWORD.toCharArray());
        }
        Path keyStore = tlsDir.resolve(id + ".p12");
        if (!Files.exists(keyStore)) {
            deploymentCa.issueKeyStore(id, TLS_FROM, tlsValidity(), new SecureRandom(), keyStore, TLS_PASSWORD.toCharArray());
        }
        return ReplicationConfig.Tls.of(keyStore, TLS_PASSWORD, tlsDir.resolve("trust.p12"), TLS_PASSWORD);
    }

    private static Order order(String mode) {
        return Order.valueOf(mode.strip().split("\\+")[0]);
    }

    private static Propagation propagation(String mode) {
        return Propagation.valueOf(mode.strip().split("\\+")[1]);
    }

    private static void run(Order order, Propagation propagation, List<RedisFixture> redis, int requests, int threads,
                            boolean report)
            throws Exception {
        redis.forEach(RedisFixture::flushAll);
        List<Integer> ports = List.of(TestReplicas.freePort(), TestReplicas.freePort(), TestReplicas.freePort());
        List<ClusterMember> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ReplicationConfig c = TestReplicas.config("bench-" + ports.get(0), "ea-" + i, i, ports, 3, order, propagation);
            ReplicationConfig config = new ReplicationConfig(c.clusterName(), c.replicaId(), c.order(), c.propagation(),
                    c.bindAddress(), c.bindPort(), c.discovery(), c.expectedMembers(), c.timeouts(), APPLY_GROUPING);
            if (REPLICATION_TLS) {
                config = config.withTls(replicaTls("ea-" + i));
            }
            members.add(new ClusterMember(config, redis.get(i), PKI, CLOCK).connect());
        }
        try {
            while (members.stream().anyMatch(m -> m.replica.viewSize() != 3 || !m.replica.status().serving())) {
                Thread.onSpinWait();
            }
            // stations: registered in batches of 1000 through the first replica
            List<SimulatedStation> stations = new ArrayList<>(requests);
            for (int i = 0; i < requests; i++) {
                stations.add(SimulatedStation.generate("B-" + order + "-" + i, STATION_CURVE, TestPki.RANDOM));
            }
            String token = null;
            for (int from = 0; from < requests; from += 1_000) {
                List<Inputs.Station> batch = stations.subList(from, Math.min(requests, from + 1_000)).stream()
                        .map(s -> new Inputs.Station(s.canonicalId(), STATION_CURVE.curveName(), s.canonicalKeyHex(),
                                List.of(new Inputs.Permission(36L, "bitmap", "01fffc")), "P365D", null))
                        .toList();
                token = members.get(0).registration.register("op-bench", new Inputs.Batch(batch)).version();
            }
            for (ClusterMember m : members) {
                m.replica.awaitApplied(eu.vpki.common.replication.CommandId.parse(token), Duration.ofSeconds(60));
            }
            List<StationMessages.Request> prepared = prepare(stations, threads);

            // warm-up: 10 % of the requests, not measured
            int warm = requests / 10;
            drive(members, prepared.subList(0, warm), threads, new byte[warm][]);
            // saturation: all client threads
            int measured = requests - warm - 200;
            long start = System.nanoTime();
            long cpuStart = processCpuNanos();
            long redisStart = redisCpuNanos();
            long jitStart = jitMillis();
            byte[][] responses = new byte[measured][];
            PhaseResult sat = drive(members, prepared.subList(warm, warm + measured), threads, responses);
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuMillisPerEc = (processCpuNanos() - cpuStart) / 1e6 / measured;
            double redisMillisPerEc = (redisCpuNanos() - redisStart) / 1e6 / measured;
            long jit = jitMillis() - jitStart;
            // below saturation: one client, one request at a time
            PhaseResult single = drive(members, prepared.subList(warm + measured, requests), 1, new byte[200][]);

            int ok = 0;
            for (int i = 0; i < responses.length; i++) {
                SimulatedStation s = stations.get(warm + i);
                if (MESSAGES.readEnrolment(responses[i], prepared.get(warm + i), PKI.ea).ok()) {
                    ok++;
                }
            }
            String digest = members.get(0).replica.stateDigest();
            boolean converged = waitConverged(members, digest);
            System.out.printf(
                    (report ? "" : "(warm-up pass) ")
                            + "%s + %s: %d EC in %.2f s = %.0f EC/s (%d threads), ok %d/%d, p50 %.2f ms, p99 %.2f ms;"
                            + " single client p50 %.2f ms, p99 %.2f ms; replicas converged: %s; JVM CPU %.3f ms per EC"
                            + " (JIT compiling %d ms in the window), 3 redis-servers %.3f ms per EC%n",
                    order, propagation, measured, seconds, measured / seconds, threads, ok, measured,
                    sat.latencyMillis(50), sat.latencyMillis(99), single.latencyMillis(50), single.latencyMillis(99), converged,
                    cpuMillisPerEc,
                    jit, redisMillisPerEc);
        } finally {
            members.forEach(ClusterMember::close);
        }
    }

    /**
     * The crypto-only ceiling in the same run (same machine load): per request what the EA computes
     * (decrypt, parse with proof of possession, canonical-key signature, issue with re-decode and
     * checks, signed and encrypted response), without Redis or replication.
     */
    private static void ceiling(int requests, int threads, Duration atLeast, boolean report) throws Exception {
        List<SimulatedStation> stations = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            stations.add(SimulatedStation.generate("C-" + i, STATION_CURVE, TestPki.RANDOM));
        }
        List<StationMessages.Request> prepared = prepare(stations, threads);
        var identity = new eu.vpki.common.etsi.ts103097.DecryptionIdentity(PKI.eaEncKey, PKI.ea.hashedId8(), PKI.ea.sha256());
        var encryption = new eu.vpki.common.etsi.ts103097.DataEncryption(new java.security.SecureRandom());
        var signer = PKI.eaSigner();
        long start = System.nanoTime();
        long cpuStart = processCpuNanos();
        long jitStart = jitMillis();
        // the one load generator, closed loop: the measured pass takes every prepared request once; the warm-up goes
        // round them for atLeast (no replay guard on this path)
        LoadModel model = atLeast.isZero()
                ? new LoadModel.Closed(threads, requests, Duration.ofHours(1))
                : new LoadModel.Closed(threads, Long.MAX_VALUE, atLeast);
        PhaseResult r = new LoadRunner().run("ceiling", PhaseResult.ENROLMENT, model, n -> {
            int i = (int) (n % requests);
            var decrypted = eu.vpki.common.etsi.ts102941.DecryptedRequest.decrypt(prepared.get(i).body(), identity, encryption);
            var received = eu.vpki.common.etsi.ts102941.EnrolmentMessages.parseRequest(decrypted);
            received.outerSignature().requireSelfSignedBy(stations.get(i).canonicalKey().publicKey(),
                    eu.vpki.common.error.ErrorCode.CANONICAL_KEY_MISMATCH);
            var ec = eu.vpki.common.etsi.ts103097.CertificateIssuer.issue(
                    eu.vpki.common.etsi.ts103097.CertificateProfiles.enrolmentCredential(
                            eu.vpki.common.etsi.ts103097.Validity.of(CLOCK.instant(), eu.vpki.common.etsi.ts103097.Validity.Unit.HOURS, 24),
                            received.request().verificationKey(), null, null),
                    PKI.ea, signer);
            eu.vpki.common.etsi.ts102941.EnrolmentMessages.response(decrypted, 0, ec, signer, PKI.ea, CLOCK.instant(), encryption);
            return Outcome.OK;
        }, progress -> {
        });
        if (r.failed() > 0) {
            throw new IllegalStateException("the ceiling's requests failed: " + r.failuresByCode());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long done = r.succeeded();
        if (report) {
            System.out.printf(
                    "crypto-only ceiling: %d EC in %.2f s = %.0f EC/s (%d threads, no Redis, no replication); JVM CPU %.3f ms per EC"
                            + " (JIT compiling %d ms in the window)%n",
                    done, seconds, done / seconds, threads, (processCpuNanos() - cpuStart) / 1e6 / done, jitMillis() - jitStart);
        } else {
            System.out.printf("JIT warm-up: %d crypto-only EC in %.1f s (%.0f EC/s at the end of it is not measured)%n", done, seconds,
                    done / seconds);
        }
    }

    /** Milliseconds the JIT compilers have spent so far (all compiler threads). */
    private static long jitMillis() {
        return java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    /** CPU time of the redis-server processes this JVM started. */
    private static long redisCpuNanos() {
        return ProcessHandle.current().descendants()
                .filter(p -> p.info().command().map(c -> c.contains("redis-server")).orElse(false))
                .mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L))
                .sum();
    }

    private static boolean waitConverged(List<ClusterMember> members, String ignored) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (members.stream().map(m -> m.replica.stateDigest()).distinct().count() == 1) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }

    private static List<StationMessages.Request> prepare(List<SimulatedStation> stations, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(2, threads));
        try {
            List<Future<StationMessages.Request>> futures = new ArrayList<>();
            for (SimulatedStation s : stations) {
                futures.add(pool.submit(() -> MESSAGES.enrolment(s, PKI.ea, CLOCK.instant())));
            }
            List<StationMessages.Request> out = new ArrayList<>(futures.size());
            for (Future<StationMessages.Request> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdown();
        }
    }

    /**
     * Sends each request to replica i % 3 from {@code threads} closed-loop clients of the one load generator
     * ({@link LoadRunner}, closed loop), the answers into {@code responses}; fails if any request failed.
     */
    private static PhaseResult drive(List<ClusterMember> members, List<StationMessages.Request> requests, int threads, byte[][] responses) {
        PhaseResult r = new LoadRunner().run("enrolment", PhaseResult.ENROLMENT, new LoadModel.Closed(threads, requests.size(),
                Duration.ofHours(1)), i -> {
                    responses[(int) i] = members.get((int) (i % 3)).enrolment.enrol(requests.get((int) i).body());
                    return Outcome.OK;
                }, progress -> {
                });
        if (r.succeeded() != requests.size()) {
            throw new IllegalStateException("enrolments failed in the client: " + r.failuresByCode());
        }
        return r;
    }

    /** CPU time of this JVM (all threads: EA cores, JGroups, appliers; not the redis-server processes). */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
