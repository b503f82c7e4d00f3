package eu.vpki.ea;

import eu.vpki.common.replication.Replica;
import eu.vpki.common.testing.RedisFixture;
import eu.vpki.common.testing.TestTls;
import eu.vpki.ea.testing.TestReplicas;
import eu.vpki.operator.OperatorApplication;
import eu.vpki.operator.web.OperatorCredentials;
import eu.vpki.station.FleetFile;
import eu.vpki.station.FleetRegistrar;
import eu.vpki.station.OperatorClient;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.cli.CommandSupport;
import eu.vpki.station.cli.RegisterCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine;
import redis.clients.jedis.Jedis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code register} against a real Operator (its Spring Boot application, one replica, a real redis-server, https):
 * refused batches are retried when the refusal may pass (507: the replica's Redis is full) and given up at once when
 * it cannot (409: an id already registered), each recorded and skipped while the rest is registered; only acknowledged
 * stations reach the fleet file, batch by batch; a second run on that file registers just the stations it lacks.
 */
class RegisterAgainstOperatorTest {
    private static final HttpClient HTTP = TestTls.loopback().client();
    private static final SecureRandom RANDOM = new SecureRandom();

    @TempDir
    static Path dir;
    static RedisFixture redis;
    static ConfigurableApplicationContext operator;
    static URI operatorUrl;
    static Path tokenFile;

    @BeforeAll
    static void start() throws IOException {
        redis = RedisFixture.start();
        tokenFile = Files.writeString(dir.resolve("token"), "token-1\n");
        Path credentials = Files.write(dir.resolve("operators"), List.of(OperatorCredentials.line("op-1", "token-1")));
        int port = TestReplicas.freePort();
        Map<String, Object> properties = new java.util.HashMap<>(Map.of("server.port", "0", "server.address", "127.0.0.1",
                "management.server.port", "0", "vpki.audit.dir", dir.resolve("audit").toString(),
                "spring.application.name", "vpki-operator", "vpki.replication.replica-id", "operator-0",
                "vpki.replication.cluster-name", "register-" + port, "vpki.replication.bind-port", port,
                "vpki.replication.initial-hosts", "127.0.0.1[" + port + "]", "vpki.replication.expected-members", "1"));
        properties.putAll(Map.of("vpki.replication.join-timeout", "300ms", "vpki.redis.url", redis.url(),
                "vpki.operator.credentials-file", credentials.toString()));
        properties.putAll(TestTls.loopback().serverProperties());
        operator = new SpringApplicationBuilder(OperatorApplication.class).run(properties.entrySet().stream()
                .map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new));
        operatorUrl = URI.create("https://127.0.0.1:" + operator.getEnvironment().getProperty("local.server.port"));
        await().atMost(Duration.ofMinutes(1)).until(() -> operator.getBean(Replica.class).status().serving());
    }

    @AfterAll
    static void stop() {
        if (operator != null) {
            operator.close();
        }
        redis.stop();
    }

    @Test
    void refusedBatches_areRetriedOrGivenUp_recorded_andTheRestRegistered_batchByBatch() throws Exception {
        OperatorClient api = new OperatorClient(HTTP, operatorUrl, "token-1", Duration.ofSeconds(30));
        String prefix = "STREAM-" + Long.toHexString(RANDOM.nextLong()) + "-";
        // station 3 takes an id registered before the run: its batch is refused for good (409)
        SimulatedStation taken = SimulatedStation.generate(prefix + "taken", CommandSupport.curve("nistP256"), RANDOM);
        assertThat(api.register(List.of(taken), CommandSupport.AT_PERMISSIONS, Duration.ofDays(30)).status()).isEqualTo(201);
        Path fleet = dir.resolve("stream-fleet.json");
        List<String> events = new ArrayList<>();
        FleetRegistrar.Summary summary;
        try (FleetFile.Appender appender = FleetFile.Appender.open(fleet)) {
            summary = new FleetRegistrar(api).stream(8, i -> i == 3
                    ? taken
                    : SimulatedStation.generate(prefix + i,
                            CommandSupport.curve("nistP256"), RANDOM),
                    2, CommandSupport.AT_PERMISSIONS, Duration.ofDays(30),
                    new FleetRegistrar.Retry(3, Duration.ofMillis(10), Duration.ofMillis(50)), new FleetRegistrar.Listener() {
                        @Override
                        public void acknowledged(long from, List<SimulatedStation> batch) throws IOException {
                            // what was acknowledged before is already on disk
                            assertThat(FleetFile.read(fleet)).hasSize(2 * (int) events.stream().filter(e -> e.startsWith("ok")).count());
                            appender.append(batch);
                            events.add("ok " + from);
                        }

                        @Override
                        public void failed(FleetRegistrar.FailedBatch batch) {
                            events.add("failed " + batch.from() + " after " + batch.attempts() + ": " + batch.reason());
                            if (batch.from() == 2) {
                                fillRedis(); // the next batch meets a full Redis
                            } else {
                                freeRedis();
                            }
                        }
                    });
        }
        assertThat(events).hasSize(4);
        assertThat(events.get(0)).isEqualTo("ok 0");
        assertThat(events.get(1)).startsWith("failed 2 after 1: HTTP 409 duplicate-id");
        assertThat(events.get(2)).startsWith("failed 4 after 3: HTTP 507 storage-full");
        assertThat(events.get(3)).isEqualTo("ok 6");
        assertThat(summary.registered()).isEqualTo(4);
        assertThat(summary.failedStations()).isEqualTo(4);

        Set<String> inFile = FleetFile.read(fleet).stream().map(SimulatedStation::canonicalId).collect(Collectors.toSet());
        assertThat(inFile).containsExactlyInAnyOrder(prefix + 0, prefix + 1, prefix + 6, prefix + 7);
        SortedSet<String> registered = api.listAll(100, null);
        assertThat(registered).containsAll(inFile);
        assertThat(registered).as("a refused batch registers nothing").doesNotContain(prefix + 2, prefix + 4, prefix + 5);
    }

    @Test
    void registerCommand_exitsNonZeroWhenABatchFailed_andASecondRunRegistersOnlyWhatTheFleetFileLacks() throws Exception {
        Path fleet = dir.resolve("cli-fleet.json");
        String[] args = {"--operator", operatorUrl.toString(), "--tls-ca", TestTls.loopback().caCertificate().toString(),
                "--operator-token-file", tokenFile.toString(), "--fleet", fleet.toString(), "--stations", "6", "--batch", "2",
                "--attempts", "2", "--backoff", "PT0.01S", "--progress-interval", "PT0S"};

        // a full Redis for the whole first run: every batch is refused (507), retried once, recorded
        fillRedis();
        ByteArrayOutputStream first = new ByteArrayOutputStream();
        int exit = new CommandLine(new RegisterCommand(new PrintStream(first, true, StandardCharsets.UTF_8))).execute(args);
        String output = first.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isEqualTo(1);
        assertThat(output).contains("failed: stations 0..1 after 2 attempt(s): HTTP 507 storage-full", "holds 0 of 6");
        assertThat(FleetFile.read(fleet)).isEmpty();

        freeRedis();
        ByteArrayOutputStream second = new ByteArrayOutputStream();
        exit = new CommandLine(new RegisterCommand(new PrintStream(second, true, StandardCharsets.UTF_8))).execute(args);
        output = second.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        assertThat(output).contains("registered 6 stations", "holds 6 of 6", "registered 6 of 6 (100.0 %)", "stations/s");
        List<SimulatedStation> stations = FleetFile.read(fleet);
        assertThat(stations).hasSize(6);

        // a third run with a larger fleet: resumes, registers the 2 missing
        String[] larger = args.clone();
        larger[9] = "8";
        ByteArrayOutputStream third = new ByteArrayOutputStream();
        exit = new CommandLine(new RegisterCommand(new PrintStream(third, true, StandardCharsets.UTF_8))).execute(larger);
        output = third.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(output).isZero();
        assertThat(output).contains("resuming: " + fleet + " holds 6 stations; registering 2 more", "holds 8 of 8");
        List<SimulatedStation> all = FleetFile.read(fleet);
        assertThat(all).hasSize(8);
        assertThat(all.subList(0, 6).stream().map(SimulatedStation::canonicalId).toList())
                .isEqualTo(stations.stream().map(SimulatedStation::canonicalId).toList());
        OperatorClient api = new OperatorClient(HTTP, operatorUrl, "token-1", Duration.ofSeconds(30));
        assertThat(api.listAll(100, null)).containsAll(all.stream().map(SimulatedStation::canonicalId).toList());
        assertThat(all.stream().map(SimulatedStation::canonicalId).distinct()).hasSize(8);
    }

    /** The Operator replica's Redis over its limit: the replica refuses writes (STORAGE_FULL) once it read its figures. */
    private static void fillRedis() {
        try (Jedis jedis = redis.connect()) {
            jedis.configSet("maxmemory", "1");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> operator.getBean(Replica.class).status().detail().contains("writes refused"));
    }

    private static void freeRedis() {
        try (Jedis jedis = redis.connect()) {
            jedis.configSet("maxmemory", "0");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> !operator.getBean(Replica.class).status().detail().contains("writes refused"));
    }
}
