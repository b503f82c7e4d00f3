package eu.vpki.common.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports for the services a test starts itself, the one place tests take them from.
 *
 * <p>A port the kernel hands out for {@code new ServerSocket(0)} comes from the ephemeral range,
 * the same range every outgoing connection (to Redis, between replicas, to a service) takes its
 * local port from: between probing such a port and a service binding it, one of the test's own
 * connections can take it, and the service fails with "port in use" (seen on CI for an AA started
 * seconds after its port was probed). Ports here come from below the ephemeral range, which the
 * kernel never gives to a connection; each is probed free on every interface before it is handed
 * out, and one JVM never hands out the same port twice. Concurrent JVMs start at random points of
 * the window, and the window stays clear of the fixed ports of the integration tests
 * (LocalClusterIT, FaultsIT, ExperimentIT use 21500 and above).
 *
 * <p>On a machine shared by several builds, each can confine its tests to a window of its own with the
 * system property {@code vpki.test.ports=LOW-HIGH} (Surefire passes {@code -D} options of the command line
 * on), and the redis-servers the tests start with {@code vpki.test.redis-ports=LOW-HIGH}
 * ({@link #freeIn(String)}).
 */
public final class TestPorts {
    static final int WINDOW_START = 12_000;
    static final int WINDOW_END = 21_000;
    private static final AtomicInteger NEXT = new AtomicInteger(
            ThreadLocalRandom.current().nextInt(WINDOW_END - WINDOW_START));

    private TestPorts() {
    }

    /** A port no socket of this machine is bound to, outside the ephemeral range where the kernel allows it. */
    public static int free() {
        String window = System.getProperty("vpki.test.ports");
        if (window != null && !window.isBlank()) {
            return freeIn(window);
        }
        int start = Math.max(WINDOW_START, 1024);
        int end = Math.min(WINDOW_END, ephemeralLow());
        if (end - start < 100) {
            return kernelChosen();
        }
        for (int tries = 0; tries < end - start; tries++) {
            int port = start + Math.floorMod(NEXT.getAndIncrement(), end - start);
            if (bindable(port)) {
                return port;
            }
        }
        return kernelChosen();
    }

    /**
     * A free port of {@code window} ({@code LOW-HIGH}, both included), never the same twice in one JVM.
     *
     * @throws IllegalStateException if every port of the window is taken
     */
    public static int freeIn(String window) {
        String[] bounds = window.trim().split("-");
        int low = Integer.parseInt(bounds[0].trim());
        int high = Integer.parseInt(bounds[1].trim());
        for (int tries = 0; tries <= high - low; tries++) {
            int port = low + Math.floorMod(NEXT.getAndIncrement(), high - low + 1);
            if (bindable(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port in " + window);
    }

    /** The lowest port of the kernel's ephemeral range (Linux), or the IANA default where it cannot be read. */
    static int ephemeralLow() {
        try {
            // readAllLines, not readString: on this kernel readString returns the first byte of a /proc file only
            String range = Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim();
            return Integer.parseInt(range.split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 49_152;
        }
    }

    static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int kernelChosen() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
