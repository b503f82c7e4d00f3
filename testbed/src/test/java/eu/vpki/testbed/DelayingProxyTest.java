package eu.vpki.testbed;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The delaying proxy in front of a real echo server on loopback: bytes arrive unchanged and in
 * order in both directions, a round trip takes at least twice the one-way delay (only the lower
 * bound is checked: a busy machine makes it slower, never faster), a half-close is passed on.
 */
class DelayingProxyTest {
    private ServerSocket echo;
    private Thread echoThread;

    @BeforeEach
    void startEcho() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        echoThread = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket s = echo.accept();
                    Thread t = new Thread(() -> {
                        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // client gone
                        }
                    });
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        echoThread.setDaemon(true);
        echoThread.start();
    }

    @AfterEach
    void stopEcho() throws IOException {
        echo.close();
    }

    private InetSocketAddress echoAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), echo.getLocalPort());
    }

    @Test
    void roundTrip_takesAtLeastTwiceTheOneWayDelay_andBytesComeBackUnchanged() throws Exception {
        try (DelayingProxy proxy = DelayingProxy.start("t", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), echoAddress(),
                Duration.ofMillis(60)); Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            s.setTcpNoDelay(true);
            long start = System.nanoTime();
            s.getOutputStream().write("ping".getBytes());
            byte[] back = s.getInputStream().readNBytes(4);
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(new String(back)).isEqualTo("ping");
            assertThat(elapsedMs).as("one way there, one way back").isGreaterThanOrEqualTo(120);
            assertThat(proxy.connections()).isEqualTo(1);
            assertThat(proxy.delay()).isEqualTo(Duration.ofMillis(60));
        }
    }

    @Test
    void aMegabyteBothWays_arrivesInOrder_andAHalfCloseIsPassedOn() throws Exception {
        byte[] payload = new byte[1 << 20];
        new Random(19).nextBytes(payload);
        try (DelayingProxy proxy = DelayingProxy.start("t", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), echoAddress(),
                Duration.ofMillis(5)); Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            Thread writer = new Thread(() -> {
                try {
                    s.getOutputStream().write(payload);
                    s.shutdownOutput();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            writer.start();
            // readAllBytes ends only when the echo server's end of stream came back through the proxy
            byte[] back = s.getInputStream().readAllBytes();
            writer.join();
            assertThat(back).isEqualTo(payload);
            assertThat(proxy.forwardedBytes()).isEqualTo(2L * payload.length);
        }
    }

    @Test
    void shorteningTheDelay_neverReordersAStream() throws Exception {
        try (DelayingProxy proxy = DelayingProxy.start("t", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), echoAddress(),
                Duration.ofMillis(300)); Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            s.setTcpNoDelay(true);
            s.getOutputStream().write('a');
            // once the proxy has read (and stamped) 'a', it is in flight, due 300 ms later; 'b', read with no delay, must wait for it
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> proxy.readBytes() == 1);
            proxy.delay(Duration.ZERO);
            s.getOutputStream().write('b');
            assertThat(new String(s.getInputStream().readNBytes(2))).isEqualTo("ab");
            assertThat(proxy.delay()).isZero();
        }
    }

    @Test
    void negativeDelay_isRefused() {
        assertThatThrownBy(() -> DelayingProxy.start("t", new InetSocketAddress(0), echoAddress(), Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
