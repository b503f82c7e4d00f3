package eu.vpki.aa.bench;

import eu.vpki.common.process.ChildProcess;
import eu.vpki.station.load.LoadModel;
import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.Outcome;
import eu.vpki.station.load.PhaseResult;
import eu.vpki.aa.core.AaIdentity;
import eu.vpki.aa.core.AaMetrics;
import eu.vpki.aa.core.AtPolicy;
import eu.vpki.aa.core.AuthorizationOutcome;
import eu.vpki.aa.core.AuthorizationService;
import eu.vpki.aa.core.AuthorizationValidationClient;
import eu.vpki.aa.core.EaEndpoint;
import eu.vpki.aa.core.EaValidation;
import eu.vpki.aa.core.RequestWindow;
import eu.vpki.aa.testing.LocalPki;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts102941.AuthorizationValidationMessages;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.fleet.RecordDecoding;
import eu.vpki.shell.replay.CaffeineReplayCache;
import eu.vpki.station.OperatorClient;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.awaitility.Awaitility.await;

/**
 * AA issuance throughput on this machine (issue #5; results in docs/benchmarks.md, "AA issuance").
 * Not a test: run it with {@code aa/src/test/bench/run-aa-benchmark.sh}.
 *
 * <p>One run: the real RCA, DC and Operator start in this JVM, one EA replica (own Redis) as a JVM process of its
 * own, and the AA as 1, 2 and 4 separate JVM processes serving the same certificate; the EA and AA processes run
 * on their modules' runtime class paths, as deployed (without the other authorities' classes and the Spring
 * Security and springdoc they bring, which this JVM needs), and with nothing else in them, so the CPU each uses
 * is the service's alone. Stations are registered
 * through the Operator and enrolled at the EA; AT requests (proof of possession, EC signature
 * encrypted for the EA) are built before each measurement, never during it. A closed loop of N
 * workers, each with one persistent HTTP/1.1 connection to one AA process (round robin), posts them
 * and records latency in an HdrHistogram; every 64th answer is fully decrypted and checked, and the
 * AA processes' own counters confirm how many ATs were issued. In the same run the crypto-only
 * ceiling is measured: the same server-side work (the AA core and the EA's message crypto and EC
 * lookup) in this JVM, without HTTP, Redis or replication, on 1 and 2 threads, once before and
 * once after the HTTP measurements.
 *
 * <p>System properties: {@code bench.curve} (nistP256; or brainpoolP256r1, brainpoolP384r1: the RCA's, EA's
 * and AA's signing keys), {@code bench.station-curve} (the stations' keys; default {@code bench.curve}),
 * {@code bench.aas} (1,2,4), {@code bench.concurrency} (1,2,4,8,16,32, for one
 * AA), {@code bench.concurrency.many} (8,16,32, for several AAs), {@code bench.warmup} (PT20S),
 * {@code bench.measure} (PT10S), {@code bench.ea-client} (NETTY, the default, or JDK), {@code bench.aa-heap}
 * (512m), {@code bench.aa-jvm} (more AA JVM options, space-separated; -XX:+UseParallelGC, as deployed), {@code bench.jfr} (false: true records a JFR profile per AA and EA process, and one of this JVM per level, into {@code bench.out}),
 * {@code bench.ea-heap} (512m), {@code bench.ea-jvm} (more EA JVM options; -XX:+UseParallelGC, as deployed),
 * {@code bench.aa-classpath} and {@code bench.ea-classpath} (this JVM's class path: the AA and EA processes' class paths;
 * {@code run-aa-benchmark.sh} passes the modules' runtime class paths, as deployed),
 * {@code bench.async-profiler} (none: the path of async-profiler's {@code libasyncProfiler.so}, e.g. unpacked from
 * {@code tools.profiler:async-profiler} on Maven Central; each measured level is then profiled in every AA process, the EA
 * process and this JVM through {@code jcmd JVMTI.agent_load}, CPU samples with kernel frames, written as collapsed stacks
 * {@code <process>-<n>aa-c<c>.collapsed} into {@code bench.out}), {@code bench.out} (target/aa-benchmark),
 * {@code bench.pairs} (0: with one AA, that many more rounds of every level followed at once by the 2-thread
 * ceiling, each round's best level against its own ceiling, and the median of those ratios),
 * {@code bench.etsi-tls} (false; true: the DC, the EA and the AAs speak TLS only, so both hops, vehicle to
 * AA and AA to EA, run over TLS 1.3 on kept-alive connections; each level then also reports how many TCP
 * connections the machine opened during it, from {@code /proc/net/snmp}, i.e. at most that many handshakes),
 * {@code bench.backends} ({@code software}; {@code software,pkcs11}: where the EA's and the AA's keys are, each backend
 * measured in turn in the same run, issue #36: {@code pkcs11} puts both authorities' keys in SoftHSM2 tokens made under
 * {@code bench.out} by the key ceremony (an EA and an AA of their own, certified by the same RCA beside the software
 * ones, the stations registered and enrolled at each EA), and its levels are labelled {@code pkcs11 <n> AA}; the
 * ceiling and the pairs stay the software keys', so {@code software} must be among the backends).
 *
 * <p>The scheduling policy is the launcher's, inherited by every process this JVM starts: {@code run-aa-benchmark.sh}
 * runs it under SCHED_BATCH, as {@code deploy/systemd} runs the services ({@code VPKI_BENCH_SCHED=other}: the default
 * policy). The log says which policy each process has once the AAs are up.
 */
public final class AaThroughputBenchmark {
    static final SecureRandom RANDOM = new SecureRandom();
    /** Curve of the authorities' signing keys (RCA, EA, AA; encryption keys: the same, or brainpoolP256r1 for brainpoolP384r1). */
    static final EtsiCurve CURVE = EtsiCurve.parse(prop("bench.curve", "nistP256"));
    /** Curve of the stations' keys (canonical, EC, AT). */
    static final EtsiCurve STATION_CURVE = EtsiCurve.parse(prop("bench.station-curve", LocalPki.curveName(CURVE)));
    static final Duration WARMUP = Duration.parse(prop("bench.warmup", "PT20S"));
    static final Duration MEASURE = Duration.parse(prop("bench.measure", "PT10S"));
    static final List<Integer> AAS = ints(prop("bench.aas", "1,2,4"));
    static final List<Integer> LEVELS_ONE = ints(prop("bench.concurrency", "1,2,4,8,16,32"));
    static final List<Integer> LEVELS_MANY = ints(prop("bench.concurrency.many", "8,16,32"));
    static final String EA_CLIENT = prop("bench.ea-client", "NETTY");
    static final String AA_HEAP = prop("bench.aa-heap", "512m");
    static final List<String> AA_JVM = List.of(prop("bench.aa-jvm", "-XX:+UseParallelGC").trim().split("\\s+"));
    static final boolean JFR = Boolean.parseBoolean(prop("bench.jfr", "false"));
    static final Path OUT = Path.of(prop("bench.out", "target/aa-benchmark"));
    static final String ASYNC_PROFILER = prop("bench.async-profiler", "");
    static final String AA_CLASSPATH = prop("bench.aa-classpath", System.getProperty("java.class.path"));
    static final String EA_HEAP = prop("bench.ea-heap", "512m");
    static final List<String> EA_JVM = List.of(prop("bench.ea-jvm", "-XX:+UseParallelGC").trim().split("\\s+"));
    static final String EA_CLASSPATH = prop("bench.ea-classpath", System.getProperty("java.class.path"));
    static final boolean ETSI_TLS = Boolean.parseBoolean(prop("bench.etsi-tls", "false"));
    /** Rounds of (every level of one AA, then the 2-thread ceiling) after the first measurements; 0: none. */
    static final int PAIRS = Integer.parseInt(prop("bench.pairs", "0"));
    /** The workers' TLS client: trusts the test TLS CA only (null without {@link #ETSI_TLS}). */
    static final javax.net.ssl.SSLSocketFactory WORKER_TLS = ETSI_TLS
            ? eu.vpki.common.etsi.crypto.ApiTlsCa.clientContext(eu.vpki.common.testing.TestTls.loopback().caCertificate())
                    .getSocketFactory()
            : null;
    /** Where the EA's and the AA's keys are, measured in this order (issue #36). */
    static final List<String> BACKENDS = Arrays.stream(prop("bench.backends", "software").split(",")).map(String::trim).toList();
    static final int STATIONS = 200;
    static final double GENERATION_RATE = 900; // requests built per second of measurement: above any rate reached here
    static final Duration WARMUP_CHUNK = Duration.ofSeconds(30);

    /** One measured level. */
    record Result(String setup, int concurrency, long completed, long errors, double seconds, double issuedPerSecond,
                  Histogram latency, Map<String, Double> phaseMillis, long refused, double serverCpuMsPerAt, double clientCpuMsPerAt,
                  double coresUsed, String cpuByProcess) {
        double perSecond() {
            return completed / seconds;
        }

        double millis(double percentile) {
            return latency.getValueAtPercentile(percentile) / 1000.0;
        }
    }

    private final LocalPki pki = ETSI_TLS ? new LocalPki(CURVE).withEtsiTls() : new LocalPki(CURVE);
    /** One backend's authorities: its EA, its AA (certificate file {@code <aaName>.cert}), their stations and the AA's key arguments. */
    record Authorities(String backend, LocalPki.Ea ea, String aaName, EtsiCertificate aa, List<SimulatedStation> stations,
                       List<String> aaKeyArguments) {
    }

    private final Map<String, Authorities> authorities = new LinkedHashMap<>();
    /** The backend being measured: its EA, AA and stations. */
    private LocalPki.Ea ea;
    private EtsiCertificate aaCertificate;
    private Authorities current;
    private List<SimulatedStation> stations = new ArrayList<>();
    private final List<Integer> aaPorts = IntStream.range(0, 4).mapToObj(i -> LocalPki.freePort()).toList();
    /** The AA processes' actuator (health, Prometheus) ports. */
    private final List<Integer> aaManagementPorts = IntStream.range(0, 4).mapToObj(i -> LocalPki.freePort()).toList();
    private final StringBuilder report = new StringBuilder();
    /** The EA replica's process (one for the whole run) and the AA processes of the current setup. */
    private final List<ChildProcess> eaProcesses = new ArrayList<>();
    private List<ChildProcess> aaProcesses = List.of();

    public static void main(String[] args) throws Exception {
        Files.createDirectories(OUT);
        AaThroughputBenchmark bench = new AaThroughputBenchmark();
        try {
            bench.run();
        } finally {
            stop(bench.eaProcesses);
            bench.pki.close();
        }
        System.exit(0);
    }

    void run() throws Exception {
        log("machine: " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.version") + "; GC "
                + java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .map(java.lang.management.GarbageCollectorMXBean::getName).toList()
                + ", AA JVM options " + AA_JVM
                + "; EA client " + EA_CLIENT + "; authorities on " + LocalPki.curveName(CURVE) + ", stations on "
                + LocalPki.curveName(STATION_CURVE)
                + "; crypto " + eu.vpki.common.etsi.crypto.CryptoBackend.description()
                + " (AA processes inherit VPKI_CRYPTO_NATIVE and VPKI_CRYPTO_BRAINPOOL, or take -Dvpki.crypto.native / -Dvpki.crypto.brainpool in bench.aa-jvm)"
                + "; AA class path "
                + (AA_CLASSPATH.equals(System.getProperty("java.class.path")) ? "the harness's (test scope)" : "bench.aa-classpath")
                + ", EA class path "
                + (EA_CLASSPATH.equals(System.getProperty("java.class.path")) ? "the harness's (test scope)" : "bench.ea-classpath")
                + ", EA JVM options " + EA_JVM
                + "; warm-up " + WARMUP + ", measure " + MEASURE + "; ETSI endpoints "
                + (ETSI_TLS ? "TLS only (vehicle to AA and AA to EA)" : "plain HTTP")
                + "; load average " + loadAverage() + "; key backends " + BACKENDS);
        if (!BACKENDS.contains("software") || !BACKENDS.stream().allMatch(b -> b.equals("software") || b.equals("pkcs11"))) {
            throw new IllegalArgumentException("bench.backends: software, or software,pkcs11 (the ceiling is the software keys'), not "
                    + BACKENDS);
        }
        pki.startRcaAndDc();
        for (String backend : BACKENDS) {
            authorities.put(backend, certify(backend));
        }
        pki.publishCtlToEas(BACKENDS.size(), BACKENDS.size());

        List<Result> results = new ArrayList<>();
        for (String backend : BACKENDS) {
            use(authorities.get(backend));
            pki.startCluster(ea, "ASYNC", (replica, arguments) -> eaProcesses.add(startService(ea.name + "-" + replica, EA_HEAP, EA_JVM,
                    EA_CLASSPATH, "eu.vpki.ea.EaApplication", arguments)));
            for (int i = 0; i < eaProcesses.size(); i++) {
                awaitHealthy(eaProcesses.get(i), ea.managementPorts.get(i));
            }
            log(backend + ": EA replica process(es) up");
            enrolStations();
            boolean software = backend.equals("software");
            if (software) {
                results.addAll(ceiling("before"));
            }
            for (int n : AAS) {
                aaProcesses = startAas(n);
                try {
                    // in chunks: each chunk's requests are built just before it, so a long warm-up does not
                    // send requests older than the AA's request window (they would be refused, correctly)
                    for (Duration left = WARMUP; !left.isNegative() && !left.isZero(); left = left.minus(WARMUP_CHUNK)) {
                        closedLoop(n, 16, left.compareTo(WARMUP_CHUNK) < 0 ? left : WARMUP_CHUNK, "warm-up");
                    }
                    for (int c : n == 1 ? LEVELS_ONE : LEVELS_MANY) {
                        results.add(closedLoop(n, c, MEASURE, (software ? "" : backend + " ") + n + " AA"));
                    }
                    if (n == 1 && PAIRS > 0 && software) {
                        results.addAll(pairs());
                    }
                } finally {
                    stop(aaProcesses);
                    aaProcesses = List.of();
                }
            }
            if (BACKENDS.size() > 1) {
                // the next backend's EA takes this one's place: one EA process measured at a time
                stop(eaProcesses);
                eaProcesses.clear();
            }
        }
        use(authorities.get("software"));
        results.addAll(ceiling("after"));
        log("load average at the end (other work on this machine shows here): " + loadAverage());
        table(results);
        Files.writeString(OUT.resolve("aa-benchmark-" + Instant.now().toString().replace(':', '-') + ".md"), report);
    }

    // ---- setup ----

    /**
     * The EA and the AA of {@code backend}, certified by the RCA: software keys in PKCS#12 files (the EA
     * {@code ea-bench}, the AA {@code aa}), or keys the key ceremony made in two SoftHSM2 tokens, one per authority
     * (the EA {@code ea-token}, the AA {@code aa-token}); the AA certificates share the access point, one AA being
     * measured at a time.
     */
    Authorities certify(String backend) {
        if (backend.equals("software")) {
            LocalPki.Ea softwareEa = pki.certifyEa("ea-bench", 1);
            EtsiCertificate aa = pki.certifyAa(aaUri(aaPorts.get(0)), "aa");
            return new Authorities(backend, softwareEa, "aa", aa, new ArrayList<>(), List.of());
        }
        // both tokens before the module is first loaded in this JVM (eu.vpki.common.testing.SoftHsm); SOFTHSM2_CONF from
        // run-aa-benchmark.sh, which the EA and AA processes inherit
        eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings eaToken = eu.vpki.common.testing.SoftHsm.createToken("bench-ea");
        eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings aaToken = eu.vpki.common.testing.SoftHsm.createToken("bench-aa");
        log("pkcs11: SoftHSM2 tokens bench-ea (slot " + eaToken.slot() + ") and bench-aa (slot " + aaToken.slot() + "), module "
                + eaToken.library() + ", SOFTHSM2_CONF " + System.getenv("SOFTHSM2_CONF"));
        LocalPki.Ea tokenEa = pki.certifyEaInToken("ea-token", 1, eaToken, eu.vpki.common.testing.SoftHsm.PIN);
        EtsiCertificate aa = pki.certifyAaInToken(aaUri(aaPorts.get(0)), aaToken, "aa-token");
        return new Authorities(backend, tokenEa, "aa-token", aa, new ArrayList<>(),
                List.of(pki.pkcs11Arguments(aaToken, eu.vpki.common.testing.SoftHsm.PIN)));
    }

    /** Measures {@code a} from now on: its EA, its AA and its stations. */
    void use(Authorities a) {
        current = a;
        ea = a.ea();
        aaCertificate = a.aa();
        stations = a.stations();
    }

    void enrolStations() {
        for (int i = 0; i < STATIONS; i++) {
            SimulatedStation s = SimulatedStation.generate("BENCH-" + i, STATION_CURVE, RANDOM);
            OperatorClient.Answer r = ea.register(s);
            if (r.status() != 201) {
                throw new IllegalStateException("registration refused: " + r.body());
            }
            stations.add(s);
        }
        for (SimulatedStation s : stations) {
            await().atMost(Duration.ofSeconds(10)).until(() -> ea.enrol(s, 0) == EtsiCodes.Enrolment.OK);
        }
        log(STATIONS + " stations registered through the Operator and enrolled at the EA");
    }

    List<ChildProcess> startAas(int n) {
        List<ChildProcess> processes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            processes.add(startService((current.backend().equals("software") ? "" : current.backend() + "-") + "aa-" + n + "-" + i, AA_HEAP,
                    AA_JVM, AA_CLASSPATH, "eu.vpki.aa.AaApplication",
                    aaArguments(aaPorts.get(i), aaManagementPorts.get(i), "bench-" + n + "-" + i)));
        }
        for (int i = 0; i < n; i++) {
            awaitHealthy(processes.get(i), aaManagementPorts.get(i));
        }
        log(n + " AA process(es) up (" + current.backend() + " keys); scheduling policy: " + schedulingPolicies(processes));
        return processes;
    }

    /** The measured backend's AA on {@code port}: its certificate, and its keys' arguments (a token's, or the PKCS#12 file's). */
    List<String> aaArguments(int port, int managementPort, String instance) {
        List<String> extra = new ArrayList<>(List.of("--vpki.aa.ea.client=" + EA_CLIENT, "--logging.level.root=WARN",
                "--vpki.aa.replay-cache-entries=400000"));
        extra.addAll(current.aaKeyArguments());
        return pki.aaArguments(current.aaName(), port, managementPort, instance, extra.toArray(String[]::new));
    }

    /**
     * Starts one service as a JVM process of its own: {@code java -Xms<heap> -Xmx<heap> <jvm> -cp <classPath> <mainClass>
     * <arguments>}, output in {@code <OUT>/<name>.log}, with a JFR recording into {@code <OUT>/<name>.jfr} under {@code bench.jfr}.
     */
    static ChildProcess startService(String name, String heap, List<String> jvm, String classPath, String mainClass,
                                     List<String> arguments) {
        List<String> cmd = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xms" + heap, "-Xmx" + heap));
        cmd.addAll(jvm);
        if (JFR) {
            cmd.add("-XX:StartFlightRecording=filename=" + OUT.toAbsolutePath().resolve(name + ".jfr")
                    + ",settings=profile,dumponexit=true");
        }
        cmd.addAll(List.of("-cp", classPath, mainClass));
        cmd.addAll(arguments);
        try {
            // the one child-process reaper (common): stopped with SIGTERM, SIGKILL 30 s later, and when this JVM exits
            return ChildProcess.start(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(OUT.resolve(name + ".log").toFile()),
                    name, Duration.ofSeconds(30), Duration.ofSeconds(5));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot start " + name, e);
        }
    }

    /** Waits until the process's actuator on {@code managementPort} reports it healthy (for a replica: serving). */
    static void awaitHealthy(ChildProcess p, int managementPort) {
        URI health = URI.create("http://127.0.0.1:" + managementPort + "/actuator/health");
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250)).until(() -> {
            if (!p.isAlive()) {
                throw new IllegalStateException("service process exited: see its log in " + OUT);
            }
            try {
                return LocalPki.get(health).statusCode() == 200;
            } catch (RuntimeException notYet) {
                return false;
            }
        });
    }

    static void stop(List<ChildProcess> processes) {
        processes.forEach(ChildProcess::terminate);
        processes.forEach(ChildProcess::stop);
    }

    /** Requests for {@code seconds} of load, built on all cores before the measurement starts. */
    List<StationMessages.Request> prepare(double seconds) {
        int count = (int) Math.max(2_000, GENERATION_RATE * seconds);
        Instant now = Instant.now();
        AtomicInteger next = new AtomicInteger();
        return IntStream.range(0, count).parallel().mapToObj(i -> {
            SimulatedStation s = stations.get(next.getAndIncrement() % stations.size());
            return LocalPki.MESSAGES.authorization(s, ea.certificate, aaCertificate, SimulatedStation.CAM_DENM, Protection.FULL, now);
        }).toList();
    }

    // ---- HTTP closed loop ----

    Result closedLoop(int aas, int concurrency, Duration duration, String setup) throws Exception {
        List<StationMessages.Request> requests = prepare(duration.toMillis() / 1000.0);
        Map<String, double[]> before = scrape(aas);
        CpuSplit splitBefore = cpuSplit();
        jdk.jfr.Recording recording = null;
        if (JFR && !setup.equals("warm-up")) {
            recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            recording.start();
        }
        boolean profiled = !ASYNC_PROFILER.isEmpty() && !setup.equals("warm-up");
        if (profiled) {
            asyncProfiler("start,event=cpu,interval=1ms,cstack=vm", null);
        }
        long cpuBefore = processCpuNanos();
        long opensBefore = tcpActiveOpens();
        // the one load generator, closed loop: each worker keeps one persistent connection to one AA process (round
        // robin over the workers); the answers checked in full (every 64th) are checked after the timed window
        // opened before the timed window, one per worker (the worker takes the next at its first request)
        java.util.Queue<RawHttpConnection> connections = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (int w = 0; w < concurrency; w++) {
            connections.add(new RawHttpConnection("127.0.0.1", aaPorts.get(w % aas), "/aa/authorization", WORKER_TLS));
        }
        List<RawHttpConnection> workerConnections = List.copyOf(connections);
        ThreadLocal<RawHttpConnection> connection = ThreadLocal.withInitial(connections::remove);
        // each worker's CPU: its thread's CPU time at its first operation and after its latest
        Map<Thread, long[]> workerCpu = new ConcurrentHashMap<>();
        Map<Integer, byte[]> toCheck = new ConcurrentHashMap<>();
        LocalTime wallStart = LocalTime.now().truncatedTo(ChronoUnit.SECONDS);
        PhaseResult run = new LoadRunner().run("aa-c" + concurrency, PhaseResult.AUTHORIZATION,
                new LoadModel.Closed(concurrency, requests.size(), duration), n -> {
                    long[] cpu = workerCpu.computeIfAbsent(Thread.currentThread(), t -> new long[]{THREADS.getCurrentThreadCpuTime(), 0});
                    int i = (int) n;
                    RawHttpConnection.Response r = connection.get().post("application/x-its-request", requests.get(i).body());
                    cpu[1] = THREADS.getCurrentThreadCpuTime();
                    if (r.status() != 200 || !r.contentType().startsWith("application/x-its-response")) {
                        return Outcome.failure("http:" + r.status());
                    }
                    if (i % 64 == 0) {
                        toCheck.put(i, r.body());
                    }
                    return Outcome.OK;
                }, progress -> {
                });
        for (RawHttpConnection c : workerConnections) {
            c.close();
        }
        long clientCpuNanos = workerCpu.values().stream().mapToLong(c -> Math.max(0, c[1] - c[0])).sum();
        long errors = run.failed();
        long checkedRefusals = 0;
        DataEncryption encryption = new DataEncryption(RANDOM);
        for (Map.Entry<Integer, byte[]> answer : toCheck.entrySet()) {
            var at = AuthorizationMessages.readResponse(answer.getValue(), requests.get(answer.getKey()).message(), aaCertificate,
                    encryption);
            if (!at.ok()) {
                checkedRefusals++;
            } else {
                CertificateChecks.checkIssuedBy(at.authorizationTicket().orElseThrow(), aaCertificate, Instant.now());
            }
        }
        double seconds = run.elapsed().toNanos() / 1e9;
        long cpuTotal = processCpuNanos() - cpuBefore;
        long opened = tcpActiveOpens() - opensBefore;
        CpuSplit split = cpuSplit().minus(splitBefore);
        if (profiled) {
            asyncProfiler("stop", aas + "aa-c" + concurrency);
        }
        if (recording != null) {
            recording.stop();
            recording.dump(OUT.resolve("harness-" + aas + "aa-c" + concurrency + ".jfr"));
            recording.close();
        }
        Map<String, double[]> after = scrape(aas);
        Histogram all = run.latencyMicros();
        double issued = delta(before, after, "issued");
        double refused = delta(before, after, "refused") + delta(before, after, "undecryptable");
        Map<String, Double> phases = new HashMap<>();
        for (String phase : List.of("decrypt", "validation", "issue", "encrypt")) {
            double[] b = before.getOrDefault("phase:" + phase, new double[2]);
            double[] a = after.getOrDefault("phase:" + phase, new double[2]);
            phases.put(phase, a[1] - b[1] == 0 ? 0 : (a[0] - b[0]) / (a[1] - b[1]) * 1000);
        }
        Result result = new Result(setup, concurrency, run.succeeded() + run.failed(), errors, seconds, issued / seconds, all, phases,
                (long) refused + checkedRefusals, split.services() / 1e6 / Math.max(1, issued),
                clientCpuNanos / 1e6 / Math.max(1, issued), cpuTotal / 1e9 / seconds,
                String.format(Locale.ROOT, "%.2f + %.2f + %.2f", split.aa() / 1e6 / Math.max(1, issued),
                        split.ea() / 1e6 / Math.max(1, issued),
                        split.redis() / 1e6 / Math.max(1, issued)));
        log(String.format(Locale.ROOT,
                "%-8s c=%2d  %7.1f req/s  %7.1f AT/s issued  p50 %6.2f ms  p99 %6.2f ms  p99.9 %6.2f ms  max %7.2f ms"
                        + "  errors %d  refused %d  phases ms: decrypt %.2f validation %.2f issue %.2f encrypt %.2f"
                        + "  cpu ms/AT: server %.2f client %.2f  cores %.2f  load %s",
                setup, concurrency, result.perSecond(), result.issuedPerSecond(), result.millis(50), result.millis(99), result.millis(99.9),
                all.getMaxValue() / 1000.0, errors, result.refused(), phases.get("decrypt"), phases.get("validation"),
                phases.get("issue"), phases.get("encrypt"), result.serverCpuMsPerAt(), result.clientCpuMsPerAt(), result.coresUsed(),
                loadAverage()));
        double perAt = 1e6 * Math.max(1, issued);
        log(String.format(Locale.ROOT, "         CPU ms/AT by process: AA JVM(s) %.2f, EA JVM %.2f, redis %.2f; rest: this JVM %.2f"
                + " (load generator %.2f, the rest Operator, RCA, DC, GC and JIT); kernel share of the AA and EA JVMs' CPU %.0f %%;"
                + " their JIT compiler threads %.2f s; TCP connections opened on the machine %d"
                + " (for %d requests and as many AA-to-EA calls); window %s-%s",
                split.aa() / perAt, split.ea() / perAt, split.redis() / perAt, split.harness() / perAt, clientCpuNanos / perAt,
                100.0 * split.serviceKernelTicks() / Math.max(1, split.serviceKernelTicks() + split.serviceUserTicks()),
                split.serviceCompilerTicks() / 100.0, opened,
                run.succeeded() + run.failed(), wallStart, LocalTime.now().truncatedTo(ChronoUnit.SECONDS)));
        return result;
    }

    /**
     * Sends one async-profiler command to every AA process, the EA process and this JVM ({@code jcmd JVMTI.agent_load}); with
     * a {@code label}, each process's profile goes to {@code <OUT>/<aa-i|ea-i|harness>-<label>.collapsed}.
     */
    void asyncProfiler(String command, String label) throws IOException, InterruptedException {
        Map<String, Long> jvms = new LinkedHashMap<>();
        for (int i = 0; i < aaProcesses.size(); i++) {
            jvms.put("aa-" + i, aaProcesses.get(i).pid());
        }
        for (int i = 0; i < eaProcesses.size(); i++) {
            jvms.put("ea-" + i, eaProcesses.get(i).pid());
        }
        jvms.put("harness", ProcessHandle.current().pid());
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        for (Map.Entry<String, Long> jvm : jvms.entrySet()) {
            long pid = jvm.getValue();
            String options = label == null
                    ? command
                    : command + ",collapsed,file=" + OUT.toAbsolutePath().resolve(jvm.getKey() + "-" + label + ".collapsed");
            // quoted: jcmd would take an unquoted "a=b" for a named argument of its own
            Process p = new ProcessBuilder(jcmd, Long.toString(pid), "JVMTI.agent_load", ASYNC_PROFILER, "\"" + options + "\"")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0 || out.contains("rror")) {
                System.err.println("async-profiler '" + options + "' in process " + pid + ": " + out.trim());
            }
        }
    }

    /** Sums of the AA processes' counters and phase timers from /actuator/prometheus. */
    Map<String, double[]> scrape(int aas) {
        Map<String, double[]> sums = new HashMap<>();
        Pattern tickets = Pattern.compile("^vpki_aa_tickets_total\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);
        Pattern phaseSum = Pattern.compile("^vpki_aa_phase_seconds_(sum|count)\\{[^}]*phase=\"(\\w+)\"[^}]*} (\\S+)$", Pattern.MULTILINE);
        for (int i = 0; i < aas; i++) {
            String text = new String(
                    LocalPki.get(URI.create("http://127.0.0.1:" + aaManagementPorts.get(i) + "/actuator/prometheus")).body(),
                    StandardCharsets.UTF_8);
            Matcher m = tickets.matcher(text);
            while (m.find()) {
                Matcher outcome = Pattern.compile("outcome=\"(\\w+)\"").matcher(m.group(1));
                if (outcome.find()) {
                    sums.computeIfAbsent(outcome.group(1), k -> new double[1])[0] += Double.parseDouble(m.group(2));
                }
            }
            Matcher p = phaseSum.matcher(text);
            while (p.find()) {
                sums.computeIfAbsent("phase:" + p.group(2), k -> new double[2])[p.group(1).equals("sum") ? 0 : 1] += Double
                        .parseDouble(p.group(3));
            }
        }
        return sums;
    }

    static double delta(Map<String, double[]> before, Map<String, double[]> after, String key) {
        return after.getOrDefault(key, new double[1])[0] - before.getOrDefault(key, new double[1])[0];
    }

    // ---- crypto-only ceiling ----

    /** The same server-side work in this JVM: the AA core, and the EA's message crypto with an in-memory EC lookup. */
    List<Result> ceiling(String when) throws Exception {
        AuthorizationService service = ceilingService();
        List<Result> results = new ArrayList<>();
        runCeiling(service, 2, Duration.ofSeconds(5), "warm-up");
        for (int threads : new int[]{1, 2}) {
            results.add(runCeiling(service, threads, MEASURE, "ceiling " + when));
        }
        return results;
    }

    /**
     * {@link #PAIRS} rounds, one AA: every level, then at once the 2-thread ceiling, so that each round's ratio of
     * its best level to its ceiling compares two measurements minutes apart at most (the ceiling itself moves by a
     * few per cent over a run); the log gives each round's ratio and their median.
     */
    List<Result> pairs() throws Exception {
        AuthorizationService service = ceilingService();
        runCeiling(service, 2, Duration.ofSeconds(5), "warm-up");
        List<Result> results = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        for (int round = 1; round <= PAIRS; round++) {
            double best = 0;
            for (int c : LEVELS_ONE) {
                Result level = closedLoop(1, c, MEASURE, "pair " + round);
                results.add(level);
                best = Math.max(best, level.issuedPerSecond());
            }
            Result ceiling = runCeiling(service, 2, MEASURE, "ceiling pair " + round);
            results.add(ceiling);
            ratios.add(best / ceiling.issuedPerSecond());
            log(String.format(Locale.ROOT, "pair %d: best level %.1f AT/s, its ceiling %.1f AT/s: %.1f %%", round, best,
                    ceiling.issuedPerSecond(), 100 * best / ceiling.issuedPerSecond()));
        }
        List<Double> sorted = ratios.stream().sorted().toList();
        double median = sorted.size() % 2 == 1
                ? sorted.get(sorted.size() / 2)
                : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        log(String.format(Locale.ROOT, "pairs: best level / ceiling over %d rounds: median %.1f %%, lowest %.1f %%, highest %.1f %%",
                sorted.size(), 100 * median, 100 * sorted.get(0), 100 * sorted.get(sorted.size() - 1)));
        return results;
    }

    /** The ceiling's service: the AA core with the EA's part in process. */
    AuthorizationService ceilingService() throws Exception {
        SoftwareKeyStore aaStore = SoftwareKeyStore.openOrCreate(pki.dir.resolve(current.aaName() + ".p12"),
                "keystore-password-for-tests".toCharArray());
        SoftwareKeyStore eaStore = SoftwareKeyStore.openOrCreate(ea.keystore, "keystore-password-for-tests".toCharArray());
        DataEncryption encryption = new DataEncryption(RANDOM);
        AaIdentity aa = AaIdentity.of(aaCertificate, new SoftwareSigner(aaStore.keyPair("aa-signing").orElseThrow(), RANDOM),
                aaStore.keyPair("aa-encryption").orElseThrow());
        SoftwareSigner eaSigner = new SoftwareSigner(eaStore.keyPair("ea-signing").orElseThrow(), RANDOM);
        DecryptionIdentity eaIdentity = new DecryptionIdentity(eaStore.keyPair("ea-encryption").orElseThrow(),
                ea.certificate.hashedId8(), ea.certificate.sha256());
        // the EA's lookup: the EC stored as hex COER, decoded through the same bounded cache the EA's FleetState uses
        Map<HashedId8, String> ecs = new ConcurrentHashMap<>();
        stations.forEach(s -> ecs.put(s.enrolmentCredential().hashedId8(), HexFormat.of().formatHex(s.enrolmentCredential().encoded())));
        RecordDecoding decoding = new RecordDecoding(RecordDecoding.DEFAULT_ENTRIES);
        AuthorizationValidationClient inProcessEa = (uri, body) -> {
            DecryptedRequest request = DecryptedRequest.decrypt(body, eaIdentity, encryption);
            var received = AuthorizationValidationMessages.parseRequest(request,
                    id -> id.equals(aaCertificate.hashedId8()) ? Optional.of(aaCertificate) : Optional.empty(), eaIdentity, encryption);
            EtsiCertificate ec = decoding.certificate(ecs.get(received.ecSignature().signerDigest().orElseThrow()));
            received.ecSignature().requireSignedBy(ec);
            CertificateChecks.checkValidAt(ec, Instant.now());
            return CompletableFuture.completedFuture(AuthorizationValidationMessages.response(request, EtsiCodes.Validation.OK,
                    received.requested(), eaSigner, ea.certificate, Instant.now(), encryption));
        };
        SimpleMeterRegistry ceilingRegistry = new SimpleMeterRegistry();
        CaffeineReplayCache replay = new CaffeineReplayCache("aa-replay", Duration.ofMinutes(10), 1_000_000,
                CaffeineReplayCache.WhenFull.EVICT, Clock.systemUTC(), ceilingRegistry);
        AaMetrics metrics = new AaMetrics(ceilingRegistry);
        EaEndpoint endpoint = EaEndpoint.of(ea.certificate, List.of(URI.create("http://in-process/")));
        return new AuthorizationService(aa, (id, now) -> Optional.of(endpoint),
                new EaValidation(aa, inProcessEa, encryption, metrics), AtPolicy.DEFAULT, RequestWindow.DEFAULT, replay,
                (type, keyValues) -> {
                }, metrics, Clock.systemUTC(), encryption);
    }

    Result runCeiling(AuthorizationService service, int threads, Duration duration, String setup) throws InterruptedException {
        List<StationMessages.Request> requests = prepare(duration.toMillis() / 1000.0);
        // this JVM only: the ceiling's work is all here (the idle EA process and redis-servers are not part of it)
        long cpuBefore = ownCpuNanos();
        AtomicLong issued = new AtomicLong();
        PhaseResult run = new LoadRunner().run("ceiling-t" + threads, PhaseResult.AUTHORIZATION,
                new LoadModel.Closed(threads, requests.size(), duration), n -> {
                    AuthorizationOutcome outcome = service.authorize(requests.get((int) n).body()).join();
                    if (outcome instanceof AuthorizationOutcome.Answered a && a.responseCode() == EtsiCodes.Authorization.OK) {
                        issued.incrementAndGet();
                    }
                    return Outcome.OK;
                }, progress -> {
                });
        double seconds = run.elapsed().toNanos() / 1e9;
        Histogram all = run.latencyMicros();
        long cpu = ownCpuNanos() - cpuBefore;
        Result r = new Result(setup, threads, all.getTotalCount(), all.getTotalCount() - issued.get(), seconds, issued.get() / seconds,
                all, Map.of(), 0, cpu / 1e6 / Math.max(1, issued.get()), 0, cpu / 1e9 / seconds, "");
        log(String.format(Locale.ROOT,
                "%-16s threads=%d  %7.1f AT/s  p50 %6.2f ms  p99 %6.2f ms  not issued %d  cpu ms/AT %.2f  cores %.2f  load %s",
                setup, threads, r.issuedPerSecond(), r.millis(50), r.millis(99), r.errors(), r.serverCpuMsPerAt(), r.coresUsed(),
                loadAverage()));
        return r;
    }

    // ---- report ----

    void table(List<Result> results) {
        log("");
        log("| setup | concurrency | AT/s issued | requests/s | p50 ms | p99 ms | p99.9 ms | errors | server CPU ms/AT | AA + EA JVM + redis | client CPU ms/AT | cores used | decrypt ms | validation ms | issue ms | encrypt ms |");
        log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Result r : results) {
            Map<String, Double> p = r.phaseMillis();
            log(String.format(Locale.ROOT,
                    "| %s | %d | %.0f | %.0f | %.2f | %.2f | %.2f | %d | %.2f | %s | %.2f | %.2f | %s | %s | %s | %s |", r.setup(),
                    r.concurrency(), r.issuedPerSecond(), r.perSecond(), r.millis(50), r.millis(99), r.millis(99.9), r.errors(),
                    r.serverCpuMsPerAt(), r.cpuByProcess(), r.clientCpuMsPerAt(), r.coresUsed(),
                    fmt(p.get("decrypt")), fmt(p.get("validation")), fmt(p.get("issue")), fmt(p.get("encrypt"))));
        }
    }

    static String fmt(Double d) {
        return d == null ? "" : String.format(Locale.ROOT, "%.2f", d);
    }

    URI aaUri(int port) {
        return URI.create(pki.etsiScheme() + "://127.0.0.1:" + port + "/aa/authorization");
    }

    void log(String line) {
        System.out.println(line);
        report.append(line).append('\n');
    }

    static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * CPU time of this JVM and every process it started (AA and EA JVMs, redis-servers): everything the
     * benchmark runs on this machine, load generator included.
     */
    static long processCpuNanos() {
        long children = ProcessHandle.current().descendants().mapToLong(AaThroughputBenchmark::cpuNanos).sum();
        return ownCpuNanos() + children;
    }

    /** CPU time of this JVM alone. */
    static long ownCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    static long cpuNanos(ProcessHandle p) {
        return p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    /** CPU of each part of the run, in nanoseconds except the ticks. */
    record CpuSplit(long aa, long ea, long harness, long redis, long serviceKernelTicks, long serviceUserTicks, long serviceCompilerTicks) {
        CpuSplit minus(CpuSplit o) {
            return new CpuSplit(aa - o.aa, ea - o.ea, harness - o.harness, redis - o.redis, serviceKernelTicks - o.serviceKernelTicks,
                    serviceUserTicks - o.serviceUserTicks, serviceCompilerTicks - o.serviceCompilerTicks);
        }

        /** The services' CPU: the AA and EA JVMs and the redis-servers. */
        long services() {
            return aa + ea + redis;
        }
    }

    /** The CPU so far of the AA JVMs, the EA JVMs, this JVM and the redis-servers; kernel, user and JIT compiler ticks of the AA and EA JVMs. */
    CpuSplit cpuSplit() {
        List<ProcessHandle> services = new ArrayList<>();
        aaProcesses.forEach(p -> ProcessHandle.of(p.pid()).ifPresent(services::add));
        eaProcesses.forEach(p -> ProcessHandle.of(p.pid()).ifPresent(services::add));
        long aa = aaProcesses.stream().flatMap(p -> ProcessHandle.of(p.pid()).stream()).mapToLong(AaThroughputBenchmark::cpuNanos).sum();
        long ea = eaProcesses.stream().flatMap(p -> ProcessHandle.of(p.pid()).stream()).mapToLong(AaThroughputBenchmark::cpuNanos).sum();
        long redis = ProcessHandle.current().descendants().filter(AaThroughputBenchmark::isRedis).mapToLong(AaThroughputBenchmark::cpuNanos)
                .sum();
        long kernel = 0;
        long user = 0;
        long compiler = 0;
        for (ProcessHandle p : services) {
            Path proc = Path.of("/proc", Long.toString(p.pid()));
            Optional<ProcStat> stat = ProcStat.read(proc.resolve("stat"));
            kernel += stat.map(ProcStat::kernelTicks).orElse(0L);
            user += stat.map(ProcStat::userTicks).orElse(0L);
            try (var tasks = Files.list(proc.resolve("task"))) {
                compiler += tasks.map(task -> ProcStat.read(task.resolve("stat"))).flatMap(Optional::stream)
                        .filter(t -> t.name().startsWith("C1 Compiler") || t.name().startsWith("C2 Compiler"))
                        .mapToLong(t -> t.kernelTicks() + t.userTicks()).sum();
            } catch (IOException | RuntimeException noProc) {
                // not Linux, or the process is gone
            }
        }
        return new CpuSplit(aa, ea, ownCpuNanos(), redis, kernel, user, compiler);
    }

    static boolean isRedis(ProcessHandle p) {
        return p.info().command().orElse("").contains("redis");
    }

    /** A process's or thread's name and CPU from its {@code /proc/.../stat} (fields 2, 14 and 15), in clock ticks. */
    record ProcStat(String name, long userTicks, long kernelTicks, int policy) {
        /** Empty where there is no such file (not Linux, or the process or thread is gone). */
        static Optional<ProcStat> read(Path statFile) {
            try {
                String stat = Files.readString(statFile);
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                return Optional.of(new ProcStat(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
                        Long.parseLong(f[11]), Long.parseLong(f[12]), Integer.parseInt(f[38])));
            } catch (IOException | RuntimeException noProc) {
                return Optional.empty();
            }
        }

        /** The scheduling policy (field 41) by its name in sched(7). */
        String policyName() {
            return switch (policy) {
                case 0 -> "SCHED_OTHER";
                case 1 -> "SCHED_FIFO";
                case 2 -> "SCHED_RR";
                case 3 -> "SCHED_BATCH";
                case 5 -> "SCHED_IDLE";
                case 6 -> "SCHED_DEADLINE";
                default -> "policy " + policy;
            };
        }
    }

    /**
     * The scheduling policy of this JVM and of each AA and EA process, as {@code run-aa-benchmark.sh} set it (SCHED_BATCH
     * unless {@code VPKI_BENCH_SCHED=other}; the processes this JVM starts inherit it).
     */
    String schedulingPolicies(List<ChildProcess> aas) {
        Map<String, Long> pids = new LinkedHashMap<>();
        pids.put("this JVM", ProcessHandle.current().pid());
        for (int i = 0; i < aas.size(); i++) {
            pids.put("aa-" + i, aas.get(i).pid());
        }
        for (int i = 0; i < eaProcesses.size(); i++) {
            pids.put("ea-" + i, eaProcesses.get(i).pid());
        }
        List<String> out = new ArrayList<>();
        pids.forEach((name, pid) -> out.add(name + " " + ProcStat.read(Path.of("/proc", Long.toString(pid), "stat"))
                .map(ProcStat::policyName).orElse("unknown")));
        return String.join(", ", out);
    }

    /**
     * TCP connections this machine has opened so far ({@code Tcp: ActiveOpens} of {@code /proc/net/snmp}; -1 where
     * unreadable): its growth over a level bounds the TLS handshakes of that level (every handshake needs a new connection).
     */
    static long tcpActiveOpens() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/net/snmp"));
            for (int i = 0; i + 1 < lines.size(); i++) {
                if (lines.get(i).startsWith("Tcp:") && lines.get(i + 1).startsWith("Tcp:")) {
                    List<String> names = List.of(lines.get(i).trim().split("\\s+"));
                    return Long.parseLong(lines.get(i + 1).trim().split("\\s+")[names.indexOf("ActiveOpens")]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not on Linux
        }
        return -1;
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    static String prop(String name, String def) {
        return System.getProperty(name, def);
    }

    static List<Integer> ints(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::parseInt).toList();
    }
}
