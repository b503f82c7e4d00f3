package eu.vpki.admin;

import eu.vpki.common.http.HttpClients;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The options and the one way every {@code vpki-admin} command that speaks to a bearer-token API (the RCA admin
 * API, the Operator API) calls it: the token from a file (never the command line), the TLS trust from a PEM CA,
 * and an answer that is not the expected status printed as the problem the service answered.
 */
public final class ApiCall {
    static final JsonMapper JSON = JsonMapper.builder().build();

    /** The connection options of a bearer-token API. */
    static final class Options {
        @Option(names = "--token-file", required = true, description = "file whose first line is the bearer token (the RCA admin token, an operator's token)")
        Path tokenFile;
        @Option(names = "--tls-ca", description = "CA certificate (PEM) of the service's TLS certificate, e.g. 'bootstrap tls''s ca.crt (default: the JDK's CAs)")
        Path tlsCa;
        @Option(names = "--timeout", defaultValue = "PT30S", description = "how long to wait for an answer (default ${DEFAULT-VALUE})")
        Duration timeout;

        ApiCall connect(URI base) {
            String token;
            try {
                token = Files.readAllLines(tokenFile).stream().findFirst().orElse("").strip();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read --token-file " + tokenFile, e);
            }
            if (token.isEmpty()) {
                throw new IllegalArgumentException("--token-file " + tokenFile + " is empty");
            }
            return new ApiCall(HttpClients.http11(Duration.ofSeconds(5)).trustingPemCa(tlsCa).build(), base, token, timeout);
        }
    }

    /** An answer: its status, body and the Operator's version header (null elsewhere). */
    record Answer(int status, String body, String version) {
        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    /** A refusal of the service: the status and the problem it answered. */
    public static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refused(String what, Answer answer) {
            super(what + ": HTTP " + answer.status() + (answer.body().isBlank() ? "" : " " + answer.body()));
        }
    }

    private final HttpClient http;
    private final URI base;
    private final String token;
    private final Duration timeout;

    ApiCall(HttpClient http, URI base, String token, Duration timeout) {
        this.http = http;
        this.base = URI.create(base.toString().replaceAll("/+$", "") + "/");
        this.token = token;
        this.timeout = timeout;
    }

    Answer get(String path) {
        return get(path, null);
    }

    /** A GET that reads at least the write of {@code version} (the Operator's {@code X-Vpki-Version}), when not null. */
    Answer get(String path, String version) {
        HttpRequest.Builder request = request(path).GET();
        if (version != null) {
            request.header("X-Vpki-Version", version);
        }
        return send(request);
    }

    Answer postJson(String path, String json) {
        return send(request(path).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Answer postBytes(String path, String contentType, byte[] body) {
        return send(request(path).header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    /** The answer, or {@link Refused} when its status is not {@code expected}. */
    static Answer expect(int expected, String what, Answer answer) {
        if (answer.status() != expected) {
            throw new Refused(what, answer);
        }
        return answer;
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path.startsWith("/") ? path.substring(1) : path)).timeout(timeout)
                .header("Authorization", "Bearer " + token).header("Accept", "application/json");
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(answer.statusCode(), answer.body(), answer.headers().firstValue("X-Vpki-Version").orElse(null));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach " + base + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
