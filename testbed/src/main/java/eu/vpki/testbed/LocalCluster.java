package eu.vpki.testbed;

import eu.vpki.common.http.HttpClients;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.redis.RedisServer;
import eu.vpki.common.redis.RedisServerBinary;
import eu.vpki.common.etsi.crypto.ApiTlsCa;
import eu.vpki.admin.PkiSecrets;
import eu.vpki.admin.RcaAdminClient;
import eu.vpki.admin.ReplicationTls;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A complete PKI on this machine: RCA, DC, EA replicas and Operator replicas (one JGroups group,
 * each with its own real Redis), and AAs, each service its own JVM, logs in one folder. It generates
 * the secrets, the EA and AA keys, has the RCA certify them, waits until everything is healthy and
 * the DC serves a CTL listing them, and writes {@code cluster.json} (endpoints, pids) so that
 * {@link #stop(Path)} from another process can end it. {@link #close()} (or Ctrl-C) stops everything.
 *
 * <p>The bearer-token APIs speak HTTPS only: it generates a TLS CA for the run ({@code tls/ca.crt}, its
 * key in {@code secrets/}) and gives the RCA and each Operator replica a server certificate for the
 * address it listens on; the DC trusts that CA for its pulls from the RCA, and {@link #sslContext()}
 * gives clients the same trust. The ETSI endpoints (DC, EA, AA) stay plain HTTP unless
 * {@link ClusterSpec#etsiTls()}: then they speak https only with certificates of the same CA, every URL
 * the CTL lists is https, and the services calling them (RCA publishing to the DC, EA and AA fetching
 * from it, AA to EA) trust that CA ({@code vpki.tls.client-bundle}); clients use {@link #sslContext()}.
 *
 * <p>Every service runs on its own {@link Host} of a {@link HostNetwork}: all on loopback, or each
 * in its own network namespace. The replicas are {@link ReplicaNode}s that a fault harness can
 * kill, pause and restart (JVM or redis-server) while the rest keeps running.
 */
public final class LocalCluster implements AutoCloseable {
    static final String OPERATOR_ID = "demo-operator";
    /** The Maven modules whose executable jars the cluster runs. */
    private static final Duration HEALTH_TIMEOUT = Duration.ofMinutes(3);
    /**
     * How long a recording JVM may take to stop and write its class-data archive. Not a race to win:
     * writing takes seconds even on a busy machine; this only bounds a JVM that hangs.
     */
    private static final Duration ARCHIVE_WRITE_TIMEOUT = Duration.ofMinutes(5);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Of the run's TLS CA and server certificates: a cluster runs for days at most. */
    private static final Duration TLS_VALIDITY = Duration.ofDays(30);
    /** Small, fast-starting JVMs for the services that do little work. */
    private static final List<String> LIGHT_JVM = List.of("-Xss512k", "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    /**
     * The EA and AA JVMs. Also C1 only: with nine JVMs on a small machine, C2 spent as much CPU
     * compiling BouncyCastle's field arithmetic in each JVM as the requests themselves did during a
     * run of a few minutes (the demo went from 213 s to 140 s on 2 cores). Long-running
     * measurements set {@code VPKI_SERVICE_JVM_OPTS=-XX:TieredStopAtLevel=4} for full C2 code.
     */
    private static final List<String> WORK_JVM = List.of("-Xss512k", "-Xmx768m", "-XX:+UseParallelGC", "-XX:TieredStopAtLevel=1");

    private final ClusterSpec spec;
    private final HostNetwork network;
    private final Routes routes;
    /** Health checks, the RCA and the DC; built once the TLS CA exists. */
    private HttpClient http;
    /** RCA, DC and AAs. */
    private final List<ServiceProcess> services = new ArrayList<>();
    private final List<ReplicaNode> replicas = new ArrayList<>();
    private final SecureRandom random = new SecureRandom();
    /** Trusts the run's TLS CA only: the client of the RCA and the Operators. */
    private javax.net.ssl.SSLContext sslContext;
    private Endpoints endpoints;
    /** The password every replica's Redis asks for, and the file the replicas read it from. */
    private String redisPassword;
    private Path redisPasswordFile;
    /** The replication channel's deployment CA and one key store per EA and Operator replica, made per start. */
    private ReplicationTls replicationTls;
    /** Whether the first JVM of each jar records its class-data archive (only {@link #recordArchives}). */
    private final boolean recordArchives;
    /** Whether a PKI the work directory holds is started again with its state ({@link #restart}) instead of deleted. */
    private final boolean keepState;
    private final java.util.Set<Path> archiveRecorders = new java.util.HashSet<>();
    private final List<ServiceProcess> recorders = new ArrayList<>();

    /**
     * What a client needs to use the cluster.
     *
     * @param tlsCa the CA certificate (PEM) of the https URLs ({@code rca}, {@code operators}): trust it, and only it, for them
     */
    public record Endpoints(URI rca, URI dc, List<URI> operators, List<URI> eaReplicas, List<URI> aas, Path rcaCertificate,
                            String operatorId, String operatorToken, Path logDir, Path tlsCa) {
    }

    private LocalCluster(ClusterSpec spec, HostNetwork network, Routes routes, boolean recordArchives, boolean keepState) {
        this.spec = spec;
        this.network = network;
        this.routes = routes;
        this.recordArchives = recordArchives;
        this.keepState = keepState;
    }

    /**
     * How a service reaches another when the path is not direct (the geographic experiment puts a
     * delaying proxy on cross-region links, or places the replicas in several regions): the URL an AA
     * is given for an EA replica (the CTL's {@code aaAccessPoint}, and the AA's fail-over list), the
     * EA replicas an AA validates at instead, and the one-way delay a replica adds to its peers'
     * replication messages.
     */
    @FunctionalInterface
    public interface Routes {
        /** Direct: every service reaches the others at their own URLs. */
        Routes DIRECT = ea -> ea;

        URI aaToEa(URI eaReplica);

        /**
         * The EA replicas AA number {@code aa} validates at, in place of the CTL's {@code aaAccessPoint}
         * and the fail-over list ({@code vpki.aa.ea.access-points}); empty: those.
         */
        default List<URI> aaAccessPoints(int aa, List<URI> eaReplicas) {
            return List.of();
        }

        /**
         * The one-way delay replica {@code replica} (ea-0.., operator-0..) adds to the replication messages of
         * each of its peers ({@code vpki.replication.emulated-delays}); empty: none.
         */
        default Map<String, Duration> replicationDelays(String replica) {
            return Map.of();
        }
    }

    /** Starts everything on loopback and returns when the cluster is usable. */
    public static LocalCluster start(ClusterSpec spec, java.util.function.Consumer<String> log) {
        return start(spec, new LoopbackNetwork(), log);
    }

    /**
     * Starts everything, each service on its own host of {@code network}, and returns when the
     * cluster is usable. The network stays the caller's to close (after this cluster).
     */
    public static LocalCluster start(ClusterSpec spec, HostNetwork network, java.util.function.Consumer<String> log) {
        return start(spec, network, Routes.DIRECT, log);
    }

    /** As {@link #start(ClusterSpec, HostNetwork, java.util.function.Consumer)}, the AAs reaching the EA through {@code routes}. */
    public static LocalCluster start(ClusterSpec spec, HostNetwork network, Routes routes, java.util.function.Consumer<String> log) {
        ClusterStateFile.refuseIfRunning(spec.workDir());
        return boot(spec, network, routes, false, false, log);
    }

    /**
     * Starts the PKI the work directory holds ({@link #holdsPki}) again with its state: the same secrets, RCA key and
     * state, EA and AA keys and certificates (not certified again), the DC's files and every replica's Redis data (its
     * append-only file, reloaded); the run's TLS CA and the replication channel's certificates are made anew for the
     * start, as on every start. A work directory without a complete PKI is cleared and a new PKI started, as
     * {@link #start} does. Start it with the shape it was first started with (replica counts): a replica the first start
     * did not have joins empty and fetches the state.
     */
    public static LocalCluster restart(ClusterSpec spec, HostNetwork network, java.util.function.Consumer<String> log) {
        ClusterStateFile.refuseIfRunning(spec.workDir());
        return boot(spec, network, Routes.DIRECT, false, true, log);
    }

    /**
     * Whether {@code workDir} holds a PKI a launcher started and {@link #restart} can start again: its secrets, the RCA's
     * key store and certificate, the EA's and the AA's key stores and certificates.
     */
    public static boolean holdsPki(Path workDir) {
        Path work = workDir.toAbsolutePath();
        return java.util.stream.Stream.of("secrets/keystore-password", "secrets/redis-password", "rca/rca.p12", "rca.cert",
                "ea/ea.p12", "ea/ea.cert", "aa/aa.p12", "aa/aa.cert").allMatch(f -> Files.isRegularFile(work.resolve(f)));
    }

    static LocalCluster boot(ClusterSpec spec, HostNetwork network, Routes routes, boolean recordArchives,
                             java.util.function.Consumer<String> log) {
        return boot(spec, network, routes, recordArchives, false, log);
    }

    private static LocalCluster boot(ClusterSpec spec, HostNetwork network, Routes routes, boolean recordArchives, boolean keepState,
                                     java.util.function.Consumer<String> log) {
        LocalCluster c = new LocalCluster(spec, network, routes, recordArchives, keepState);
        try {
            c.boot(log);
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /**
     * Records the services' class-data archives unless they match the current jars: starts a
     * one-of-each cluster of {@code spec} (same ports, work directory {@code <work-dir>/class-data})
     * whose JVMs record as they exit, stops it and waits until each JVM has exited, that is, has
     * written its archive. Run it before starting a cluster, never beside one on the same ports.
     *
     * @return whether every service jar has a current archive afterwards (else services start without)
     */

    /** Fails if {@code workDir} holds the state of a cluster whose launcher still runs: its files must not be deleted. */

    /**
     * Fails, before anything starts, if on loopback a port of {@code spec} would be used twice or is
     * already listened on (another cluster, another program): a service that cannot bind exits, but its
     * health check could meanwhile be answered by whoever holds the port, and the launcher would talk to
     * a foreign cluster.
     */
    static void refuseUnusableLoopbackPorts(ClusterSpec spec) {
        spec.requireDistinctLoopbackPorts();
        List<Integer> taken = spec.loopbackPorts().stream().filter(p -> !bindable(p)).toList();
        if (!taken.isEmpty()) {
            throw new IllegalStateException("ports " + taken + " are in use (another cluster?): give this cluster other ports with"
                    + " --base-port (every port follows it unless --jgroups-base-port is given; clusters whose base ports are"
                    + " 500 apart share none)");
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true); // as the services do: a port left in TIME_WAIT by a stopped cluster is free
            s.bind(new InetSocketAddress(port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public Endpoints endpoints() {
        return endpoints;
    }

    public ClusterSpec spec() {
        return spec;
    }

    /** RCA, DC and AA processes. */
    public List<ServiceProcess> services() {
        return List.copyOf(services);
    }

    /** The EA replicas, then the Operator replicas, in member order. */
    public List<ReplicaNode> replicas() {
        return List.copyOf(replicas);
    }

    public ReplicaNode replica(String name) {
        return replicas.stream().filter(r -> r.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no replica " + name));
    }

    public HostNetwork network() {
        return network;
    }

    /** A TLS client context trusting this run's TLS CA only: for the https URLs of {@link #endpoints()}. */
    public javax.net.ssl.SSLContext sslContext() {
        return sslContext;
    }

    /** A client for this cluster: HTTP/1.1, its TLS CA trusted for the https URLs, the given connect timeout. */
    public HttpClient.Builder client(Duration connectTimeout) {
        return HttpClients.http11(connectTimeout).trusting(sslContext).builder();
    }

    private void boot(java.util.function.Consumer<String> log) {
        // every host on one address (loopback, CPU-limited or not): ports must not collide
        if (network.host("rca").address().equals(LoopbackNetwork.ADDRESS)) {
            refuseUnusableLoopbackPorts(spec);
        }
        Path work = spec.workDir().toAbsolutePath();
        Path logs = work.resolve("logs");
        Path secrets = work.resolve("secrets");
        boolean again = keepState && holdsPki(work);
        if (keepState) {
            log.accept(again
                    ? "starting the PKI in " + work + " again with its state (keys, certificates, Redis data)"
                    : "no complete PKI in " + work + ": starting a new one");
        }
        try {
            if (again) {
                // only the services' temporary files go; keys, state, Redis data, logs and audit logs stay
                AppCdsArchive.deleteRecursively(work.resolve("tmp"));
            } else {
                AppCdsArchive.deleteRecursively(work);
            }
            Files.createDirectories(logs);
            Files.createDirectories(secrets);
            // tokens and passwords: readable by this user only
            Files.setPosixFilePermissions(secrets, PosixFilePermissions.fromString("rwx------"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // tokens and passwords, as 'bootstrap secrets' writes them; every replica's Redis asks for the Redis password
        PkiSecrets secretFiles = PkiSecrets.writeOnce(secrets, OPERATOR_ID, random);
        String adminToken = secretFiles.adminToken();
        String operatorToken = secretFiles.operatorToken();
        char[] keystorePassword = secretFiles.keystorePassword().toCharArray();
        Path passwordFile = secretFiles.keystorePasswordFile();
        Path credentials = secretFiles.operatorCredentialsFile();
        redisPassword = secretFiles.redisPassword();
        redisPasswordFile = secretFiles.redisPasswordFile();
        // mutual TLS between the replicas and commands signed by their origin: a deployment CA and a key store per replica
        replicationTls = ReplicationTls.write(secrets.resolve("replication"), replicaIds(), TLS_VALIDITY, TLS_VALIDITY, List.of(),
                random, line -> {
                });
        // the TLS CA of the bearer-token APIs (RCA admin, Operator): its key beside the other secrets, its certificate public
        Instant now = Instant.now();
        ApiTlsCa tlsCa = ApiTlsCa.generate("vpki local API TLS CA", now.minus(Duration.ofMinutes(5)), TLS_VALIDITY, random);
        Path tlsCaFile = work.resolve("tls/ca.crt");
        tlsCa.write(tlsCaFile, secrets.resolve("tls-ca.key"));
        sslContext = ApiTlsCa.clientContext(tlsCaFile);
        http = client(Duration.ofSeconds(2)).build();

        Host rcaHost = network.host("rca");
        Host dcHost = network.host("dc");
        URI rcaUrl = https(rcaHost, spec.rcaPort());
        URI dcUrl = etsiUrl(dcHost, spec.dcPort());
        AppCdsArchive.extractAll(ServiceJars.SERVICE_MODULES.stream().map(this::jar).toList(), log);
        log.accept("starting RCA and DC (logs in " + logs + ")");
        Map<String, String> rcaProps = props(rcaHost, spec.rcaPort(),
                "vpki.rca.data-dir", work.resolve("rca").toString(),
                "vpki.keystore.path", work.resolve("rca/rca.p12").toString(),
                "vpki.keystore.password-file", passwordFile.toString(),
                "vpki.admin.token-file", secretFiles.adminTokenFile().toString(),
                "vpki.rca.name", "vpki local Root CA",
                "vpki.rca.curve", spec.authorityCurve(),
                "vpki.dc.urls", dcUrl.toString() + "/",
                "vpki.rca.renewal-check-interval", "PT5S");
        rcaProps.putAll(httpsOnly(tlsCa, "rca", rcaHost, now));
        rcaProps.putAll(etsiClientTls(tlsCaFile));
        ServiceProcess rca = launch(rcaHost, jar("rca"), LIGHT_JVM, rcaProps, rcaUrl, logs);
        rca.awaitHealthy(http, HEALTH_TIMEOUT);
        Path rcaCert = work.resolve("rca.cert");
        write(rcaCert, get(rcaUrl.resolve("/rca/certificate")));
        Map<String, String> dcProps = props(dcHost, spec.dcPort(),
                "vpki.dc.data-dir", work.resolve("dc").toString(),
                "vpki.rca.certificate-file", rcaCert.toString(),
                "vpki.rca.url", rcaUrl.toString(),
                // the RCA speaks https with a certificate of the run's TLS CA
                "vpki.rca.ssl-bundle", "rca",
                "spring.ssl.bundle.pem.rca.truststore.certificate", "file:" + tlsCaFile,
                "vpki.dc.pull-interval", "PT5S");
        dcProps.putAll(etsiServerTls(tlsCa, "dc", dcHost, now));
        ServiceProcess dc = launch(dcHost, jar("dc"), LIGHT_JVM, dcProps, dcUrl, logs);

        // the EA: keys generated here (one key store copied to every replica), certified by the RCA
        List<Host> eaHosts = IntStream.range(0, spec.eaReplicas()).mapToObj(i -> network.host("ea-" + i)).toList();
        List<Host> operatorHosts = IntStream.range(0, spec.operatorReplicas()).mapToObj(i -> network.host("operator-" + i)).toList();
        List<Host> aaHosts = IntStream.range(0, spec.aas()).mapToObj(i -> network.host("aa-" + i)).toList();
        List<URI> eaUrls = IntStream.range(0, spec.eaReplicas()).mapToObj(i -> etsiUrl(eaHosts.get(i), spec.eaPort(i))).toList();
        // (EA and AA side by side: writing a PKCS#12 store is seconds of key derivation in this fresh JVM)
        Path eaStore = work.resolve("ea/ea.p12");
        Path eaCertFile = work.resolve("ea/ea.cert");
        Path aaCertFile = work.resolve("aa/aa.cert");
        CompletableFuture<EtsiCertificate> eaCertifying = again
                ? CompletableFuture.completedFuture(readCertificate(eaCertFile))
                : CompletableFuture.supplyAsync(() -> certify(rcaUrl, adminToken, "EA",
                        "vpki local EA", eaStore, keystorePassword, "ea-signing", "ea-encryption",
                        Map.of("itsAccessPoint", eaUrls.get(0) + "/ea/enrolment", "aaAccessPoint",
                                routes.aaToEa(eaUrls.get(0)) + "/ea/authorization-validation")));
        List<URI> aaUrls = IntStream.range(0, spec.aas()).mapToObj(i -> etsiUrl(aaHosts.get(i), spec.aaPort(i))).toList();
        Path aaStore = work.resolve("aa/aa.p12");
        EtsiCertificate aaCert = again
                ? readCertificate(aaCertFile)
                : certify(rcaUrl, adminToken, "AA", "vpki local AA", aaStore,
                        keystorePassword, "aa-signing",
                        "aa-encryption",
                        Map.of("accessPoint", aaUrls.get(0) + "/aa/authorization"));
        EtsiCertificate eaCert = joinUnwrapped(eaCertifying);
        write(eaCertFile, eaCert.encoded());
        write(aaCertFile, aaCert.encoded());

        // the replication group: EA replicas then Operators, each with its own Redis
        Path redisBinary = RedisServerBinary.locate();
        List<Host> groupHosts = new ArrayList<>(eaHosts);
        groupHosts.addAll(operatorHosts);
        String initialHosts = IntStream.range(0, spec.groupSize())
                .mapToObj(m -> groupHosts.get(m).address() + "[" + spec.jgroupsPort(m) + "]")
                .collect(Collectors.joining(","));
        log.accept("starting " + spec.describe() + " (redis-server: " + redisBinary + "; " + network.describe() + ")");
        List<ServiceProcess> group = new ArrayList<>();
        for (int i = 0; i < spec.eaReplicas(); i++) {
            String name = "ea-" + i;
            Host host = eaHosts.get(i);
            RedisServer r = startRedis(redisBinary, host, i, work.resolve("redis/" + name));
            Map<String, String> p = replicaProps(host, spec.eaPort(i), name, i, initialHosts, r);
            p.putAll(props(host, spec.eaPort(i),
                    "vpki.keystore.path", copy(eaStore, work.resolve(name + "/ea.p12")).toString(),
                    "vpki.keystore.password-file", passwordFile.toString(),
                    "vpki.ea.certificate-file", eaCertFile.toString(),
                    "vpki.rca.certificate-file", rcaCert.toString(),
                    "vpki.dc.urls", dcUrl.toString(),
                    "vpki.dc.check-interval", "5s"));
            p.putAll(etsiServerTls(tlsCa, name, host, now));
            p.putAll(etsiClientTls(tlsCaFile));
            group.add(addReplica(name, ReplicaNode.Kind.EA, host, eaUrls.get(i), redisBinary, r, jar("ea"), WORK_JVM, p, logs));
        }
        List<URI> operatorUrls = new ArrayList<>();
        for (int i = 0; i < spec.operatorReplicas(); i++) {
            String name = "operator-" + i;
            Host host = operatorHosts.get(i);
            int member = spec.eaReplicas() + i;
            RedisServer r = startRedis(redisBinary, host, member, work.resolve("redis/" + name));
            Map<String, String> p = replicaProps(host, spec.operatorPort(i), name, member, initialHosts, r);
            p.put("vpki.operator.credentials-file", credentials.toString());
            p.putAll(httpsOnly(tlsCa, name, host, now));
            URI url = https(host, spec.operatorPort(i));
            operatorUrls.add(url);
            group.add(addReplica(name, ReplicaNode.Kind.OPERATOR, host, url, redisBinary, r, jar("operator"), LIGHT_JVM, p, logs));
        }
        String eaId = eaCert.hashedId8().toHex();
        for (int i = 0; i < spec.aas(); i++) {
            Map<String, String> p = props(aaHosts.get(i), spec.aaPort(i),
                    "vpki.keystore.path", copy(aaStore, work.resolve("aa-" + i + "/aa.p12")).toString(),
                    "vpki.keystore.password-file", passwordFile.toString(),
                    "vpki.aa.certificate-file", aaCertFile.toString(),
                    "vpki.rca.certificate-file", rcaCert.toString(),
                    "vpki.dc.urls", dcUrl.toString(),
                    "vpki.dc.check-interval", "5s");
            p.putAll(etsiServerTls(tlsCa, "aa-" + i, aaHosts.get(i), now));
            p.putAll(etsiClientTls(tlsCaFile));
            // further EA replicas for validation fail-over, after the CTL's aaAccessPoint
            p.put("vpki.aa.ea.replicas." + eaId, eaUrls.stream().skip(1).map(u -> routes.aaToEa(u) + "/ea/authorization-validation")
                    .collect(Collectors.joining(",")));
            List<URI> ownReplicas = routes.aaAccessPoints(i, eaUrls);
            if (!ownReplicas.isEmpty()) {
                p.put("vpki.aa.ea.access-points." + eaId, ownReplicas.stream().map(u -> u + "/ea/authorization-validation")
                        .collect(Collectors.joining(",")));
            }
            group.add(launch(aaHosts.get(i), jar("aa"), WORK_JVM, p, aaUrls.get(i), logs));
        }
        // the DC starts alongside the group: its members fetch the trust lists late in their start-up
        // and retry every refresh interval if the DC is not up yet
        dc.awaitHealthy(http, HEALTH_TIMEOUT);
        List<CompletableFuture<ServiceProcess>> ready = group.stream()
                .map(s -> CompletableFuture.supplyAsync(() -> s.awaitHealthy(http, HEALTH_TIMEOUT))).toList();
        ready.forEach(CompletableFuture::join);
        endpoints = new Endpoints(rcaUrl, dcUrl, operatorUrls, eaUrls, aaUrls, rcaCert, OPERATOR_ID, operatorToken, logs, tlsCaFile);
        writeState();
        log.accept("cluster ready: " + spec.describe());
    }

    /** The EA replicas' ids, then the Operator replicas' (each its replica id and the CN of its replication certificate). */
    private List<String> replicaIds() {
        List<String> ids = new ArrayList<>();
        IntStream.range(0, spec.eaReplicas()).forEach(i -> ids.add("ea-" + i));
        IntStream.range(0, spec.operatorReplicas()).forEach(i -> ids.add("operator-" + i));
        return ids;
    }

    private Map<String, String> replicaProps(Host host, int httpPort, String id, int member, String initialHosts, RedisServer r) {
        Map<String, String> p = props(host, httpPort,
                "vpki.replication.replica-id", id,
                "vpki.replication.order", spec.order(),
                "vpki.replication.propagation", spec.propagation(),
                "vpki.replication.bind-address", host.address(),
                "vpki.replication.bind-port", Integer.toString(spec.jgroupsPort(member)),
                "vpki.replication.initial-hosts", initialHosts,
                "vpki.replication.expected-members", Integer.toString(spec.groupSize()),
                "vpki.redis.url", r.url(),
                "vpki.redis.password-file", redisPasswordFile.toString());
        // not in the cluster that records the class-data archives: JDK 17 crashes writing a dynamic archive
        // (SIGSEGV in SystemDictionaryShared::adjust_lambda_proxy_class_dictionary) once the replication
        // credentials' BouncyCastle classes (a signed jar, which CDS skips) made lambdas, as the EA and
        // Operator did with TLS; every other cluster runs it
        if (!recordArchives) {
            p.put("vpki.replication.tls-key-store", replicationTls.keyStore(id).toString());
            p.put("vpki.replication.tls-trust-store", replicationTls.trustStore().toString());
            p.put("vpki.replication.tls-password-file", replicationTls.passwordFile().toString());
        }
        if (spec.failureDetection() != null) {
            p.put("vpki.replication.failure-detection-timeout", spec.failureDetection().toMillis() + "ms");
        }
        routes.replicationDelays(id).forEach((peer, delay) -> p.put("vpki.replication.emulated-delays." + peer, delay.toMillis() + "ms"));
        return p;
    }

    /**
     * A replica's redis-server with an append-only file and the spec's {@code maxmemory} (noeviction): on loopback on a
     * free port, on its own host on a fixed one.
     */
    private RedisServer startRedis(Path binary, Host host, int member, Path dataDir) {
        boolean loopback = host.launchPrefix().isEmpty() && host.address().equals(LoopbackNetwork.ADDRESS);
        return RedisServer.start(binary, new RedisServer.Options(loopback ? 0 : spec.redisPort(member), dataDir, true,
                spec.appendFsync(), host.address(), host.launchPrefix(), redisPassword, spec.redisMaxMemory()));
    }

    private ServiceProcess addReplica(String name, ReplicaNode.Kind kind, Host host, URI url, Path redisBinary, RedisServer redis,
                                      Path jar, List<String> jvm, Map<String, String> props, Path logs) {
        Path clockFile = spec.faketime() == null ? null : spec.workDir().toAbsolutePath().resolve("clock").resolve(name + ".faketime");
        Map<String, String> environment = clockFile == null ? Map.of() : ReplicaNode.faketimeEnvironment(spec.faketime(), clockFile);
        ReplicaNode node = new ReplicaNode(name, kind, host, url, redisBinary, redis, clockFile, () -> {
            ServiceProcess p = launch(host, jar, jvm, props, environment, url, logs);
            if (endpoints != null) {
                writeState();
            }
            return p;
        });
        replicas.add(node);
        return node.startJvm();
    }

    private EtsiCertificate certify(URI rca, String adminToken, String type, String name, Path store, char[] password,
                                    String signingAlias, String encryptionAlias, Map<String, String> accessPoints) {
        // a client of its own, on a new connection: key generation can take longer than the RCA's
        // keep-alive on a busy machine, and a POST sent on a pooled connection the server has just
        // closed fails ("header parser received no bytes") without the retry a GET gets
        HttpClient fresh = client(Duration.ofSeconds(2)).build();
        return new RcaAdminClient(fresh, rca, adminToken).certify(random, EtsiCurve.parse(spec.authorityCurve()), type, name, store,
                password, signingAlias, encryptionAlias, accessPoints);
    }

    /** Where every service of the cluster writes its audit log ({@code <authority>-audit-<service name>.log}). */
    public static Path auditDir(ClusterSpec spec) {
        return spec.workDir().toAbsolutePath().resolve("audit");
    }

    private static <T> T joinUnwrapped(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /** Starts a service JVM on {@code host}; RCA, DC and AAs are kept in {@link #services}, replicas in their node. */
    private ServiceProcess launch(Host host, Path jar, List<String> jvm, Map<String, String> props, URI url, Path logs) {
        return launch(host, jar, jvm, props, Map.of(), url, logs);
    }

    private ServiceProcess launch(Host host, Path jar, List<String> jvm, Map<String, String> props, Map<String, String> environment,
                                  URI url, Path logs) {
        // when recording, one JVM per jar records the class-data archive (at its exit)
        boolean records;
        synchronized (archiveRecorders) {
            records = recordArchives && archiveRecorders.add(jar);
        }
        AppCdsArchive.Launch launch = AppCdsArchive.of(jar).prepare(records, System.err::println);
        List<String> options = new ArrayList<>(jvm);
        options.addAll(launch.jvmOptions());
        // the JVM's temporary files (the servlet container's base directories, unpacked native libraries) in the work
        // directory, not the machine's: they go with it at the next start instead of piling up in /tmp
        Path tmp = spec.workDir().toAbsolutePath().resolve("tmp").resolve(host.name());
        try {
            Files.createDirectories(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + tmp, e);
        }
        options.add("-Djava.io.tmpdir=" + tmp);
        URI management = url(host, Integer.parseInt(props.get("management.server.port")));
        // every service's audit log (docs/service-shell.md) in one folder of the work directory, one file per service
        props.put("vpki.audit.dir", auditDir(spec).toString());
        props.put("vpki.audit.instance", host.name());
        ServiceProcess p = ServiceProcess.start(host.name(), host.launchPrefix(), launch.jar(), options, props, environment, url,
                management,
                logs);
        if (replicas.stream().noneMatch(r -> r.name().equals(host.name()))) {
            services.add(p);
        }
        if (records) {
            recorders.add(p);
        }
        return p;
    }

    /**
     * A service whose port speaks TLS only: a server certificate of {@code ca} for the address of
     * {@code host} (and {@code localhost} on loopback) as a PEM SSL bundle. Its key is written beside
     * the other secrets, mode 0600.
     */
    private Map<String, String> httpsOnly(ApiTlsCa ca, String name, Host host, Instant now) {
        List<String> names = host.address().equals(LoopbackNetwork.ADDRESS)
                ? List.of(host.address(), "localhost")
                : List.of(host.address());
        ApiTlsCa.Issued issued = ca.issueServer(name, names, now.minus(Duration.ofMinutes(5)), TLS_VALIDITY, random,
                spec.workDir().toAbsolutePath().resolve("secrets/tls"));
        Map<String, String> m = new LinkedHashMap<>();
        m.put("server.ssl.bundle", "api");
        m.put("spring.ssl.bundle.pem.api.keystore.certificate", "file:" + issued.certificateChain());
        m.put("spring.ssl.bundle.pem.api.keystore.private-key", "file:" + issued.privateKey());
        return m;
    }

    /** {@link #httpsOnly} for an ETSI endpoint when the spec asks for TLS on them; nothing otherwise. */
    private Map<String, String> etsiServerTls(ApiTlsCa ca, String name, Host host, Instant now) {
        return spec.etsiTls() ? httpsOnly(ca, name, host, now) : Map.of();
    }

    /** When the ETSI endpoints speak TLS: the service's clients trust the run's TLS CA for them ({@code vpki.tls.client-bundle}). */
    private Map<String, String> etsiClientTls(Path caCertificate) {
        return spec.etsiTls()
                ? Map.of("vpki.tls.client-bundle", "peers", "spring.ssl.bundle.pem.peers.truststore.certificate",
                        "file:" + caCertificate)
                : Map.of();
    }

    /** The URL of an ETSI endpoint: https when the spec asks for TLS on them, else http. */
    private URI etsiUrl(Host host, int port) {
        return spec.etsiTls() ? https(host, port) : url(host, port);
    }

    private Map<String, String> props(Host host, int port, String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("server.port", Integer.toString(port));
        m.put("server.address", host.address());
        m.put("management.server.port", Integer.toString(spec.managementPort(port)));
        // reachable from this process also when the service runs in a network namespace of its own
        m.put("management.server.address", host.address());
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    Path jar(String module) {
        return ServiceJars.jar(spec.projectDir(), module);
    }

    /** Stops the cluster described by {@code workDir/cluster.json}, started by another process. */

    private synchronized void writeState() {
        List<Long> pids = new ArrayList<>();
        services.forEach(s -> pids.add(s.pid()));
        replicas.forEach(r -> {
            if (r.jvmRunning()) {
                pids.add(r.jvm().pid());
            }
            if (r.redisRunning()) {
                pids.add(r.redis().pid());
            }
        });
        List<java.net.URI> management = replicas.stream().map(r -> r.jvm().managementUrl()).toList();
        ClusterStateFile.write(spec.workDir().toAbsolutePath(), spec, endpoints, management, pids);
    }

    @Override
    public void close() {
        // all at once, then wait for each; a recording JVM writes its class-data archive as it exits
        List<ServiceProcess> all = new ArrayList<>(services);
        replicas.stream().filter(ReplicaNode::jvmRunning).forEach(r -> all.add(r.jvm()));
        all.forEach(ServiceProcess::requestStop);
        recorders.forEach(r -> r.awaitExit(ARCHIVE_WRITE_TIMEOUT));
        for (ServiceProcess s : all) {
            try {
                s.close();
            } catch (RuntimeException e) {
                s.kill();
            }
        }
        replicas.forEach(ReplicaNode::close);
        try {
            ClusterStateFile.delete(spec.workDir());
        } catch (UncheckedIOException e) {
            // the state file only helps a later 'stop'
        }
    }

    // ---- small helpers ----

    private static URI url(Host host, int port) {
        return URI.create("http://" + host.address() + ":" + port);
    }

    private static URI https(Host host, int port) {
        return URI.create("https://" + host.address() + ":" + port);
    }

    private byte[] get(URI uri) {
        try {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("GET " + uri + ": " + r.statusCode());
            }
            return r.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Path write(Path p, String s) {
        return write(p, s.getBytes(StandardCharsets.UTF_8));
    }

    private static Path write(Path p, byte[] b) {
        try {
            Files.createDirectories(p.toAbsolutePath().getParent());
            return Files.write(p, b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An EA or AA certificate an earlier start had the RCA issue ({@link #restart}). */
    private static EtsiCertificate readCertificate(Path file) {
        try {
            return EtsiCertificate.decode(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path copy(Path from, Path to) {
        try {
            Files.createDirectories(to.getParent());
            return Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
