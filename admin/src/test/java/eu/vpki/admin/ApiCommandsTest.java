package eu.vpki.admin;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code vpki-admin authorities} and {@code stations} over real HTTP against a stand-in of the RCA admin and Operator
 * APIs (a JDK server that records what it is asked and answers as the services do): the token in the header, the
 * path, method and body of each operation, what is printed, and a refusal ending the command with the problem.
 */
class ApiCommandsTest {
    /** What the stand-in was asked: method, path and query, authorization, body. */
    record Asked(String method, String uri, String authorization, String body) {
    }

    private final List<Asked> asked = new CopyOnWriteArrayList<>();
    private HttpServer server;
    private String base;
    private Path token;

    private static final Map<String, String> ANSWERS = Map.of(
            "GET /admin/authorities", "200 [{\"type\":\"EA\",\"name\":\"ea.example.eu\",\"hashedId8\":\"0011223344556677\","
                    + "\"validFrom\":\"2026-11-29T00:00:00Z\",\"validUntil\":\"2029-11-29T00:00:00Z\",\"revoked\":false,"
                    + "\"itsAccessPoint\":\"https://ea/ea/enrolment\",\"aaAccessPoint\":\"https://ea/ea/authorization-validation\"}]",
            "POST /admin/authorities/0011223344556677/revoke", "200 {\"type\":\"EA\",\"hashedId8\":\"0011223344556677\","
                    + "\"revoked\":true,\"revokedAt\":\"2026-11-29T15:00:00Z\"}",
            "POST /admin/authorities/ca-certificate-request", "201 {\"type\":\"AA\",\"hashedId8\":\"8899aabbccddeeff\","
                    + "\"validUntil\":\"2029-11-29T00:00:00Z\",\"certificate\":\"AQID\"}",
            "GET /operator/v1/stations", "200 {\"operatorId\":\"op\",\"canonicalIds\":[\"car-2\"]}",
            "POST /operator/v1/stations", "201 {\"version\":\"7@operator-0~m1\",\"count\":1}",
            "POST /operator/v1/stations/car-1/revoke", "409 {\"error\":\"INVALID_STATE_TRANSITION\",\"detail\":\"car-1 is revoked\"}");

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            asked.add(new Asked(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                    exchange.getRequestHeaders().getFirst("Authorization"), body));
            String answer = ANSWERS.getOrDefault(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath(), "404 {}");
            byte[] bytes = answer.substring(4).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (answer.startsWith("201 {\"version")) {
                exchange.getResponseHeaders().add("X-Vpki-Version", "7@operator-0~m1");
            }
            exchange.sendResponseHeaders(Integer.parseInt(answer.substring(0, 3)), bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        token = Files.createTempFile("token", "");
        Files.writeString(token, "s3cret\n");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** Runs vpki-admin; its exit status, what it printed, what it wrote to standard error. */
    private record Run(int exit, String out, String err) {
    }

    private Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        PrintStream stdout = System.out;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            int exit = AdminTool.commandLine().setErr(new PrintWriter(err, true)).execute(args);
            return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(stdout);
        }
    }

    @Test
    void authoritiesList_printsTheRcasListAsATable_withTheAdminToken() {
        Run run = run("authorities", "list", "--rca", base, "--token-file", token.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(asked).containsExactly(new Asked("GET", "/admin/authorities", "Bearer s3cret", ""));
        assertThat(run.out()).startsWith("TYPE").containsPattern(
                "(?m)^EA +ea\\.example\\.eu +0011223344556677 +2026-11-29T00:00:00Z +2029-11-29T00:00:00Z +no +https://ea/ea/enrolment https://ea/ea/authorization-validation$");
    }

    @Test
    void authoritiesRevoke_postsTheReason() {
        Run run = run("authorities", "revoke", "0011223344556677", "--reason", "key compromise", "--rca", base, "--token-file",
                token.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(asked).containsExactly(new Asked("POST", "/admin/authorities/0011223344556677/revoke", "Bearer s3cret",
                "{\"reason\":\"key compromise\"}"));
        assertThat(run.out()).contains("EA 0011223344556677 revoked at 2026-11-29T15:00:00Z");
    }

    @Test
    void authoritiesCertify_postsTheCeremonysRequest_andWritesTheCertificate() throws Exception {
        Path request = Files.createTempFile("aa-request", ".oer");
        Files.write(request, new byte[]{9, 8, 7});
        Path out = request.resolveSibling("issued/aa.cert");

        Run run = run("authorities", "certify", "--type", "AA", "--request", request.toString(), "--access-point",
                "https://aa.example.eu/aa/authorization", "--out", out.toString(), "--rca", base, "--token-file", token.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(asked).singleElement().satisfies(a -> {
            assertThat(a.method()).isEqualTo("POST");
            assertThat(a.uri()).isEqualTo(
                    "/admin/authorities/ca-certificate-request?type=AA&accessPoint=https%3A%2F%2Faa.example.eu%2Faa%2Fauthorization");
            assertThat(a.body()).isEqualTo("\t\b\u0007");
        });
        assertThat(Files.readAllBytes(out)).containsExactly(1, 2, 3);
        assertThat(run.out()).contains("AA 8899aabbccddeeff certified until 2029-11-29T00:00:00Z");
    }

    @Test
    void stationsRegister_postsTheBatch_andPrintsTheVersionToken() throws Exception {
        Path batch = Files.createTempFile("batch", ".json");
        Files.writeString(batch, "{\"stations\":[{\"canonicalId\":\"car-1\"}]}");

        Run run = run("stations", "register", batch.toString(), "--operator", base, "--token-file", token.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(asked).containsExactly(new Asked("POST", "/operator/v1/stations", "Bearer s3cret",
                "{\"stations\":[{\"canonicalId\":\"car-1\"}]}"));
        assertThat(run.out()).contains("version 7@operator-0~m1");
    }

    @Test
    void stationsList_asksForThePageAfterTheCursor() {
        Run run = run("stations", "list", "--cursor", "car-1", "--limit", "10", "--operator", base, "--token-file", token.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(asked).containsExactly(new Asked("GET", "/operator/v1/stations?cursor=car-1&limit=10", "Bearer s3cret", ""));
        assertThat(run.out()).contains("\"canonicalIds\":[\"car-2\"]");
    }

    @Test
    void aRefusal_endsTheCommandWithTheProblem_andExitStatus2() {
        Run run = run("stations", "revoke", "car-1", "--operator", base, "--token-file", token.toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("revoking station car-1: HTTP 409", "INVALID_STATE_TRANSITION");
        assertThat(run.out()).isEmpty();
    }
}
