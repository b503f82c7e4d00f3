package eu.vpki.aa.testing;

import eu.vpki.aa.AaApplication;
import eu.vpki.admin.RcaAdminClient;
import eu.vpki.common.distribution.DistributionPaths;
import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.TestPorts;
import eu.vpki.common.testing.TestTls;
import eu.vpki.dc.DcApplication;
import eu.vpki.ea.EaApplication;
import eu.vpki.operator.OperatorApplication;
import eu.vpki.operator.web.OperatorCredentials;
import eu.vpki.rca.RcaApplication;
import eu.vpki.station.OperatorClient;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

import static org.awaitility.Awaitility.await;

/**
 * A whole local deployment for end-to-end tests and the benchmark, every service the real one on
 * 127.0.0.1 with random ports: the RCA and one DC, EA clusters (an Operator replica and EA replicas
 * in one JGroups group, each replica with its own Redis), and AA processes, in-process or as child
 * JVMs. The RCA certifies every EA and the AA through its admin API; the AA keys live in a PKCS#12
 * key store like in production. The RCA and the Operators speak TLS only; the ETSI endpoints (DC, EA
 * replicas, AAs) plain HTTP, or TLS only with {@link #withEtsiTls()} (certificates of {@link TestTls},
 * every URL https, every service's clients trusting that CA only).
 */
public final class LocalPki implements AutoCloseable {
    public static final String ADMIN_TOKEN = "aa-e2e-admin-token-0123456789";
    public static final String OPERATOR = "op-aa";
    public static final String OPERATOR_TOKEN = "aa-e2e-operator-token";
    static final SecureRandom RANDOM = new SecureRandom();
    /** The requests of the stations the tests drive (the one simulated station of the station module). */
    public static final StationMessages MESSAGES = new StationMessages(RANDOM, new DataEncryption(RANDOM));
    /** Trusts the test TLS CA: the RCA and the Operators speak TLS only, as in the local cluster; the rest plain HTTP. */
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .sslContext(eu.vpki.common.etsi.crypto.ApiTlsCa.clientContext(TestTls.loopback().caCertificate())).build();

    public final Path dir;
    /** The curve of the RCA's, the EAs' and the AA's signing keys (encryption keys: the same, or brainpoolP256r1 for brainpoolP384r1). */
    public final EtsiCurve curve;
    public final int rcaPort = freePort();
    public final int dcPort = freePort();
    /** Whether the DC, the EA replicas and the AAs speak TLS only. */
    private boolean etsiTls;
    private final List<AutoCloseable> toClose = Collections.synchronizedList(new ArrayList<>());
    private ConfigurableApplicationContext rca;
    public EtsiCertificate root;
    public EtsiCertificate aa;

    /** An EA of the deployment: its certificate and where its replicas and Operator listen. */
    public static final class Ea {
        public final String name;
        public final List<Integer> replicaPorts;
        /** Where each replica's actuator (health, Prometheus) listens. */
        public final List<Integer> managementPorts;
        public final int operatorPort = freePort();
        public final Path keystore;
        public final Path certificateFile;
        public EtsiCertificate certificate;
        /**
         * Where its replicas' keys are, as their arguments: the PKCS#12 {@link #keystore} (default), or a PKCS#11 token
         * ({@link LocalPki#certifyEaInToken}).
         */
        List<String> keyArguments;
        public final List<ConfigurableApplicationContext> replicas = new ArrayList<>();
        public final List<RedisFixture> redis = new ArrayList<>();

        /** {@code http} or {@code https}: what the replicas' ports speak. */
        public final String scheme;

        Ea(String name, int replicas, Path dir, String scheme) {
            this.name = name;
            this.scheme = scheme;
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < replicas; i++) {
                ports.add(freePort());
            }
            this.replicaPorts = List.copyOf(ports);
            this.managementPorts = ports.stream().map(p -> freePort()).toList();
            this.keystore = dir.resolve(name + ".p12");
            this.certificateFile = dir.resolve(name + ".cert");
            this.keyArguments = List.of("--vpki.keystore.path=" + keystore,
                    "--vpki.keystore.password-file=" + dir.resolve("keystore-password"));
        }

        public URI enrolment(int replica) {
            return URI.create(scheme + "://127.0.0.1:" + replicaPorts.get(replica) + "/ea/enrolment");
        }

        public URI validation(int replica) {
            return URI.create(scheme + "://127.0.0.1:" + replicaPorts.get(replica) + "/ea/authorization-validation");
        }

        public URI operator(String path) {
            return URI.create("https://127.0.0.1:" + operatorPort + "/operator/v1" + path);
        }

        /** Registers {@code station} through this EA's Operator API (CAM and DENM, one year of EC): the Operator's answer. */
        public OperatorClient.Answer register(SimulatedStation station) {
            OperatorClient api = new OperatorClient(HTTP, URI.create("https://127.0.0.1:" + operatorPort), OPERATOR_TOKEN,
                    Duration.ofSeconds(30));
            try {
                return api.register(List.of(station), SimulatedStation.CAM_DENM, Duration.ofDays(365));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        /** Initial enrolment of {@code station} at replica {@code replica}: the EA's response code (0: enrolled, the station keeps the EC). */
        public int enrol(SimulatedStation station, int replica) {
            StationMessages.Request request = MESSAGES.enrolment(station, certificate, Instant.now());
            return MESSAGES.readEnrolment(postEtsi(enrolment(replica), request.body()).body(), request, certificate).responseCode();
        }
    }

    /** A deployment whose authorities sign on nistP256. */
    public LocalPki() {
        this(EtsiCurve.NIST_P256);
    }

    /** A deployment whose authorities sign on {@code curve}. */
    public LocalPki(EtsiCurve curve) {
        this.curve = curve;
        try {
            dir = Files.createTempDirectory("vpki-aa-e2e");
            Files.writeString(dir.resolve("keystore-password"), "keystore-password-for-tests\n");
            Files.writeString(dir.resolve("admin-token"), ADMIN_TOKEN + "\n");
            Files.writeString(dir.resolve("operators"), OperatorCredentials.line(OPERATOR, OPERATOR_TOKEN) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The DC, the EA replicas and the AAs speak TLS only (call before starting anything). */
    public LocalPki withEtsiTls() {
        etsiTls = true;
        return this;
    }

    /** {@code https} when the ETSI endpoints speak TLS, else {@code http}. */
    public String etsiScheme() {
        return etsiTls ? "https" : "http";
    }

    /** Server TLS and client trust arguments of a service with an ETSI endpoint, when they speak TLS; none otherwise. */
    private String[] etsiTlsArguments() {
        if (!etsiTls) {
            return new String[0];
        }
        List<String> args = new ArrayList<>(TestTls.loopback().serverArguments());
        args.addAll(TestTls.loopback().clientTrustArguments());
        return args.toArray(String[]::new);
    }

    // ---- RCA and DC ----

    public void startRcaAndDc() {
        startRcaAndDc(new String[]{"--vpki.keystore.path=" + dir.resolve("rca/rca.p12"),
                "--vpki.keystore.password-file=" + dir.resolve("keystore-password")});
    }

    /**
     * As {@link #startRcaAndDc()}, the root key made by the key ceremony inside a PKCS#11 token (issue #36): the key
     * labelled {@code rca-root} and the root certificate it signs, which goes into the RCA's data directory, as
     * docs/pki-bootstrap.md section 7 has the operator do; the RCA then signs everything in the token.
     */
    public void startRcaAndDcInToken(eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings token, String pin) {
        try (var ceremony = eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony.open(token, java.time.Clock.systemUTC(), RANDOM)) {
            ceremony.generate(eu.vpki.rca.core.RootCertificateProvisioning.ROOT_KEY_ALIAS, curve,
                    eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony.Purpose.SIGNING);
            EtsiCertificate certificate = ceremony.rootCertificate("AA E2E Root",
                    eu.vpki.rca.core.RootCertificateProvisioning.ROOT_KEY_ALIAS,
                    10);
            write(dir.resolve("rca").resolve(eu.vpki.rca.core.RootCertificateProvisioning.CERTIFICATE_FILE), certificate.encoded());
        }
        startRcaAndDc(pkcs11Arguments(token, pin));
    }

    private void startRcaAndDc(String[] keyArguments) {
        rca = run(RcaApplication.class, "vpki-rca", rcaPort,
                "--vpki.rca.data-dir=" + dir.resolve("rca"), "--vpki.rca.name=AA E2E Root", "--vpki.rca.curve=" + curveName(curve),
                keyArguments, "--vpki.admin.token-file=" + dir.resolve("admin-token"), "--vpki.dc.urls=" + dcUrl(),
                TestTls.loopback().serverArguments().toArray(String[]::new),
                // publishes to the DC: https when the DC speaks it
                TestTls.loopback().clientTrustArguments().toArray(String[]::new));
        root = EtsiCertificate.decode(get(URI.create("https://127.0.0.1:" + rcaPort + "/rca/certificate")).body());
        write(dir.resolve("rca.cert"), root.encoded());
        run(DcApplication.class, "vpki-dc", dcPort, "--vpki.dc.data-dir=" + dir.resolve("dc"),
                "--vpki.rca.url=https://127.0.0.1:" + rcaPort + "/", "--vpki.rca.certificate-file=" + dir.resolve("rca.cert"),
                "--vpki.rca.ssl-bundle=rca",
                "--spring.ssl.bundle.pem.rca.truststore.certificate=file:" + TestTls.loopback().caCertificate(), etsiTlsArguments());
    }

    public String dcUrl() {
        return etsiScheme() + "://127.0.0.1:" + dcPort + "/";
    }

    /** Generates an EA's keys into its own key store and has the RCA certify it, aaAccessPoint = its first replica. */
    public Ea certifyEa(String name, int replicas) {
        Ea ea = new Ea(name, replicas, dir, etsiScheme());
        ea.certificate = rcaAdmin().certify(RANDOM, curve, encryptionCurve(), 730, "EA", name, ea.keystore, password(), "ea-signing",
                "ea-encryption",
                java.util.Map.of("itsAccessPoint", ea.enrolment(0).toString(), "aaAccessPoint", ea.validation(0).toString()));
        write(ea.certificateFile, ea.certificate.encoded());
        return ea;
    }

    /**
     * As {@link #certifyEa}, the EA's keys generated by the key ceremony inside a PKCS#11 token (issue #36) under the
     * default labels {@code ea-signing} and {@code ea-encryption}; its replicas then take their keys from the token.
     */
    public Ea certifyEaInToken(String name, int replicas, eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings token, String pin) {
        Ea ea = new Ea(name, replicas, dir, etsiScheme());
        try (var ceremony = eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony.open(token, java.time.Clock.systemUTC(), RANDOM)) {
            var signing = ceremony.generate("ea-signing", curve, eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony.Purpose.SIGNING);
            var encryption = ceremony.generate("ea-encryption", encryptionCurve(),
                    eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony.Purpose.ENCRYPTION);
            ea.certificate = rcaAdmin().certify("EA", name, signing.publicKey(), encryption.publicKey(), 730,
                    java.util.Map.of("itsAccessPoint", ea.enrolment(0).toString(), "aaAccessPoint", ea.validation(0).toString()));
        }
        write(ea.certificateFile, ea.certificate.encoded());
        ea.keyArguments = List.of(pkcs11Arguments(token, pin));
        return ea;
    }

    /** Generates the AA's keys into its key store and has the RCA certify it with this access point. */
    public void certifyAa(URI accessPoint) {
        certifyAa(accessPoint, "aa");
    }

    /**
     * As {@link #certifyAa(URI)}, the AA's keys in {@code <name>.p12} and its certificate in {@code <name>.cert}, for a
     * deployment with more than one AA (start it with {@link #aaArguments(String, int, int, String, String...)}).
     */
    public EtsiCertificate certifyAa(URI accessPoint, String name) {
        aa = rcaAdmin().certify(RANDOM, curve, encryptionCurve(), 730, "AA", name + ".e2e", dir.resolve(name + ".p12"), password(),
                "aa-signing", "aa-encryption", java.util.Map.of("accessPoint", accessPoint.toString()));
        write(dir.resolve(name + ".cert"), aa.encoded());
        return aa;
    }

    /** The admin tool's client of the RCA admin API, as the bootstrap and the local launcher use it. */
    private RcaAdminClient rcaAdmin() {
        return new RcaAdminClient(HTTP, URI.create("https://127.0.0.1:" + rcaPort), ADMIN_TOKEN);
    }

    /**
     * As {@link #certifyAa}, the AA's keys generated by the key ceremony inside a PKCS#11 token (issue #36)
     * under the default labels {@code aa-signing} and {@code aa-encryption}; start the AA with
     * {@link #pkcs11Arguments}.
     */
    public void certifyAaInToken(URI accessPoint, eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings token) {
        certifyAaInToken(accessPoint, token, "aa");
    }

    /** As {@link #certifyAaInToken(URI, eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings)}, its certificate in {@code <name>.cert}. */
    public EtsiCertificate certifyAaInToken(URI accessPoint, eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings token, String name) {
        try (var ceremony = eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony.open(token, java.time.Clock.systemUTC(), RANDOM)) {
            var signing = ceremony.generate("aa-signing", curve, eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony.Purpose.SIGNING);
            var encryption = ceremony.generate("aa-encryption", encryptionCurve(),
                    eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony.Purpose.ENCRYPTION);
            aa = rcaAdmin().certify("AA", name + ".e2e", signing.publicKey(), encryption.publicKey(), 730,
                    java.util.Map.of("accessPoint", accessPoint.toString()));
        }
        write(dir.resolve(name + ".cert"), aa.encoded());
        return aa;
    }

    /** The AA's arguments for keys in {@code token}, the PIN in a file. */
    public String[] pkcs11Arguments(eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings token, String pin) {
        Path pinFile = dir.resolve("pkcs11-pin");
        write(pinFile, (pin + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return new String[]{"--vpki.keystore.backend=pkcs11", "--vpki.keystore.pkcs11.library=" + token.library(),
                "--vpki.keystore.pkcs11.slot=" + token.slot(), "--vpki.keystore.pkcs11.pin-file=" + pinFile};
    }

    /** Waits until the DC serves a CTL with this many EAs and AAs and writes it where EAs read their CTL. */
    public RcaCtl publishCtlToEas(int eas, int aas) {
        URI ctlUri = DistributionPaths.ctl(URI.create(dcUrl()), root.hashedId8());
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            HttpResponse<byte[]> r = get(ctlUri);
            if (r.statusCode() != 200) {
                return false;
            }
            RcaCtl ctl = TrustLists.readCtl(r.body(), root);
            return ctl.enrolmentAuthorities().size() == eas && ctl.authorizationAuthorities().size() == aas;
        });
        byte[] ctl = get(ctlUri).body();
        write(dir.resolve("ctl.oer"), ctl);
        return TrustLists.readCtl(ctl, root);
    }

    /** A relying party's view: the verified CTL and CRL from the DC. */
    public TrustListClient vehicleView() {
        TrustListClient client = new TrustListClient(List.of(URI.create(dcUrl())), root, TrustListClient.Options.defaults(),
                HTTP.sslContext());
        client.refresh(Instant.now());
        return client;
    }

    // ---- EA clusters ----

    /** Starts the Operator replica and the EA replicas of {@code ea} in this JVM, one JGroups group, each with its own Redis. */
    public void startCluster(Ea ea, String propagation) {
        startCluster(ea, propagation, (replica, arguments) -> {
            ConfigurableApplicationContext context = new SpringApplicationBuilder(EaApplication.class)
                    .run(arguments.toArray(String[]::new));
            toClose.add(context::close);
            ea.replicas.add(context);
        });
        List<ConfigurableApplicationContext> group = new ArrayList<>(ea.replicas);
        await().atMost(Duration.ofSeconds(60)).until(() -> group.stream()
                .allMatch(context -> context.getBean(Replica.class).status().serving()));
    }

    /**
     * Starts the Operator replica of {@code ea} in this JVM and has {@code startReplica} start each EA replica from its
     * command-line arguments (for {@link EaApplication}), e.g. as a process of its own; one JGroups group, each replica
     * with its own Redis. Returns when the Operator serves (a majority of the group has joined); whether each EA replica
     * serves is for the caller to wait for.
     */
    public void startCluster(Ea ea, String propagation, BiConsumer<Integer, List<String>> startReplica) {
        List<Integer> jgroups = new ArrayList<>();
        for (int i = 0; i <= ea.replicaPorts.size(); i++) {
            jgroups.add(freePort());
        }
        String hosts = String.join(",", jgroups.stream().map(p -> "127.0.0.1[" + p + "]").toList());
        String cluster = "aa-e2e-" + ea.name + "-" + jgroups.get(0);
        int members = jgroups.size();
        RedisFixture operatorRedis = redis(ea);
        ConfigurableApplicationContext operator = run(OperatorApplication.class, "vpki-operator-" + ea.name, ea.operatorPort,
                replication(cluster, "operator", jgroups.get(0), hosts, members, propagation, operatorRedis),
                "--vpki.operator.credentials-file=" + dir.resolve("operators"),
                TestTls.loopback().serverArguments().toArray(String[]::new));
        for (int i = 0; i < ea.replicaPorts.size(); i++) {
            RedisFixture redis = redis(ea);
            startReplica.accept(i, arguments("vpki-" + ea.name + "-" + i, ea.replicaPorts.get(i), ea.managementPorts.get(i),
                    replication(cluster, ea.name + "-" + i, jgroups.get(i + 1), hosts, members, propagation, redis),
                    "--vpki.ea.certificate-file=" + ea.certificateFile, "--vpki.ea.ctl-file=" + dir.resolve("ctl.oer"),
                    "--vpki.rca.certificate-file=" + dir.resolve("rca.cert"), ea.keyArguments.toArray(String[]::new),
                    etsiTlsArguments()));
        }
        // the group serves once the EA replicas have joined: started in other processes, they may take longer
        await().atMost(Duration.ofSeconds(120)).until(() -> operator.getBean(Replica.class).status().serving());
    }

    private RedisFixture redis(Ea ea) {
        RedisFixture r = RedisFixture.start();
        ea.redis.add(r);
        toClose.add(r);
        return r;
    }

    private static String[] replication(String cluster, String id, int port, String hosts, int members, String propagation,
                                        RedisFixture redis) {
        return new String[]{"--vpki.redis.url=" + redis.url(), "--vpki.replication.cluster-name=" + cluster,
                "--vpki.replication.replica-id=" + id, "--vpki.replication.bind-port=" + port, "--vpki.replication.initial-hosts=" + hosts,
                "--vpki.replication.expected-members=" + members, "--vpki.replication.propagation=" + propagation,
                "--vpki.replication.order=FIFO", "--vpki.replication.join-timeout=1s"};
    }

    // ---- AA processes ----

    /**
     * The AA's configuration for one process listening on {@code port}, its actuator on
     * {@code managementPort} (0: any free port), as command-line arguments.
     */
    public List<String> aaArguments(int port, int managementPort, String instance, String... extra) {
        return aaArguments("aa", port, managementPort, instance, extra);
    }

    /**
     * As {@link #aaArguments(int, int, String, String...)}, for the AA certified as {@code name} ({@code <name>.cert},
     * and its keys in {@code <name>.p12} unless {@code extra} names a token: {@link #pkcs11Arguments}).
     */
    public List<String> aaArguments(String name, int port, int managementPort, String instance, String... extra) {
        boolean token = List.of(extra).contains("--vpki.keystore.backend=pkcs11");
        List<String> args = new ArrayList<>(List.of("--server.port=" + port, "--server.address=127.0.0.1",
                "--spring.application.name=vpki-aa-" + instance,
                "--management.server.port=" + managementPort,
                "--vpki.aa.certificate-file=" + dir.resolve(name + ".cert"),
                "--vpki.aa.access-point=" + etsiScheme() + "://127.0.0.1:" + port + "/aa/authorization"));
        if (!token) {
            args.addAll(List.of("--vpki.keystore.path=" + dir.resolve(name + ".p12"),
                    "--vpki.keystore.password-file=" + dir.resolve("keystore-password")));
        }
        args.addAll(List.of(
                "--vpki.rca.certificate-file=" + dir.resolve("rca.cert"), "--vpki.dc.urls=" + dcUrl(),
                "--vpki.audit.dir=" + auditDir(instance), "--vpki.audit.instance=" + instance));
        args.addAll(List.of(etsiTlsArguments()));
        args.addAll(List.of(extra));
        return args;
    }

    public Path auditDir(String instance) {
        return dir.resolve("audit-" + instance);
    }

    public ConfigurableApplicationContext startAa(int port, String instance, String... extra) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(AaApplication.class)
                .run(aaArguments(port, 0, instance, extra).toArray(String[]::new));
        toClose.add(context::close);
        return context;
    }

    // ---- helpers ----

    private ConfigurableApplicationContext run(Class<?> app, String name, int port, Object... args) {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(app)
                .run(arguments(name, port, 0, args).toArray(String[]::new));
        toClose.add(context::close);
        return context;
    }

    /** A service's command-line arguments: listening on {@code port}, its actuator on {@code managementPort} (0: any free port), then {@code args}. */
    private List<String> arguments(String name, int port, int managementPort, Object... args) {
        List<String> all = new ArrayList<>(List.of("--server.port=" + port, "--server.address=127.0.0.1",
                "--spring.application.name=" + name,
                "--management.server.port=" + managementPort, "--vpki.audit.dir=" + dir.resolve("audit"), "--vpki.audit.instance=" + name));
        for (Object a : args) {
            if (a instanceof String[] many) {
                all.addAll(List.of(many));
            } else {
                all.add((String) a);
            }
        }
        return all;
    }

    private EtsiCurve encryptionCurve() {
        return curve.encryptionCapable() ? curve : EtsiCurve.BRAINPOOL_P256R1;
    }

    /** The name the configuration and the REST APIs use for a curve. */
    public static String curveName(EtsiCurve curve) {
        return curve == EtsiCurve.NIST_P256 ? "nistP256" : curve.curveName();
    }

    char[] password() {
        return "keystore-password-for-tests".toCharArray();
    }

    static String hex(EtsiKeyPair k) {
        return HexFormat.of().formatHex(k.publicKey().compressed());
    }

    static void write(Path file, byte[] bytes) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Posts a station's {@code request} to an AA access point and reads the answer (anything but an ETSI response is an error). */
    public static AuthorizationMessages.AtResult authorize(URI accessPoint, StationMessages.Request request, EtsiCertificate aa) {
        HttpResponse<byte[]> r = postEtsi(accessPoint, request.body());
        if (r.statusCode() != 200 || !r.headers().firstValue("Content-Type").orElse("").startsWith("application/x-its-response")) {
            throw new IllegalStateException("AA answered " + r.statusCode() + " " + r.headers().firstValue("Content-Type").orElse("")
                    + ": " + new String(r.body(), StandardCharsets.UTF_8));
        }
        return MESSAGES.readAuthorization(r.body(), request, aa);
    }

    /** POSTs a TS 102 941 request body ({@code application/x-its-request}). */
    public static HttpResponse<byte[]> postEtsi(URI uri, byte[] body) {
        return send(HttpRequest.newBuilder(uri).header("Content-Type", "application/x-its-request")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    public static HttpResponse<byte[]> get(URI uri) {
        return send(HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    public static <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return HTTP.send(request, handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static int freePort() {
        return TestPorts.free();
    }

    /** Stops everything started, newest first, and deletes the directory. */
    @Override
    public void close() {
        List<AutoCloseable> all = new ArrayList<>(toClose);
        Collections.reverse(all);
        for (AutoCloseable c : all) {
            try {
                c.close();
            } catch (Exception e) {
                // keep stopping the rest
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
