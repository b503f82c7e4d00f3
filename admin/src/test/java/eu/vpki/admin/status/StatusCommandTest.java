package eu.vpki.admin.status;

import com.sun.net.httpserver.HttpServer;
import eu.vpki.admin.AdminTool;
import eu.vpki.common.testing.TestPorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code vpki-admin status} over real HTTP against a replica's endpoint (served by a JDK server) and a closed port. */
class StatusCommandTest {
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void status_readsEveryReplica_printsTheTable_andFailsWhileOneDoesNotServe() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/actuator/replication", exchange -> {
            byte[] body = StatusTableTest.json("ea-0", "SERVING", "serving", 0, 42, 42).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        String up = "http://127.0.0.1:" + server.getAddress().getPort();
        String down = "http://127.0.0.1:" + TestPorts.free();
        Path file = Files.createTempFile("replicas", ".txt");
        Files.writeString(file, "# the replicas\n" + down + "  # not started\n");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            exit = AdminTool.commandLine().setErr(new PrintWriter(new StringWriter()))
                    .execute("status", up, "--replicas-file", file.toString(), "--timeout", "PT2S");
        } finally {
            System.setOut(stdout);
        }

        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(printed).isEqualTo(1);
        assertThat(printed).containsPattern("(?m)^ea-0 +serving ").containsPattern("(?m)^" + down + " +unreachable")
                .contains("1 of 2 replicas serve");

        assertThat(AdminTool.commandLine().setOut(new PrintWriter(new StringWriter())).execute("status", up)).isZero();
    }
}
