package eu.vpki.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy that adds a one-way delay to every byte in both directions, as a link between two
 * regions would: what one side sends reaches the other side {@code delay} later, in order, at full
 * speed (no bandwidth limit, no loss). It stands between vehicles, AAs and EAs of different regions
 * in the geographic experiment, because this machine has no {@code tc netem}
 * (docs/design-wan-emulation.md weighs it against toxiproxy and the alternatives).
 *
 * <p>Each accepted connection opens one to the target; each direction has a reader thread that
 * stamps every chunk it reads with the time it is due, and a writer thread that takes chunks from a
 * {@link DelayQueue} when they are due (FIFO: with one constant delay, due times follow read order).
 * End of stream in one direction is passed on as a half-close once every byte before it was
 * delivered; the connection ends when both directions have. A round trip through the proxy takes at
 * least twice the delay.
 */
public final class DelayingProxy implements AutoCloseable {
    private static final int CHUNK = 16 * 1024;

    private final ServerSocket server;
    private final InetSocketAddress target;
    private volatile long delayNanos;
    private final String name;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong forwardedBytes = new AtomicLong();
    private final AtomicLong readBytes = new AtomicLong();
    private volatile boolean closed;

    private DelayingProxy(ServerSocket server, InetSocketAddress target, Duration delay, String name) {
        this.server = server;
        this.target = target;
        this.delayNanos = delay.toNanos();
        this.name = name;
    }

    /**
     * Listens on {@code listen} (port 0: a free port, see {@link #port()}) and forwards every connection to
     * {@code target}, each direction delayed by {@code oneWayDelay}.
     */
    public static DelayingProxy start(String name, InetSocketAddress listen, InetSocketAddress target, Duration oneWayDelay)
            throws IOException {
        if (oneWayDelay.isNegative()) {
            throw new IllegalArgumentException("a delay cannot be negative: " + oneWayDelay);
        }
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(listen, 256);
        DelayingProxy proxy = new DelayingProxy(server, target, oneWayDelay, name);
        thread(name + "-accept", proxy::accept).start();
        return proxy;
    }

    public int port() {
        return server.getLocalPort();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    }

    public Duration delay() {
        return Duration.ofNanos(delayNanos);
    }

    /**
     * Changes the delay for what is read from now on. Bytes already read keep their due time, and
     * nothing is ever due before what was read earlier in the same direction, so a shorter delay does
     * not reorder a stream (it takes effect once the bytes read before it are delivered).
     */
    public void delay(Duration oneWayDelay) {
        if (oneWayDelay.isNegative()) {
            throw new IllegalArgumentException("a delay cannot be negative: " + oneWayDelay);
        }
        delayNanos = oneWayDelay.toNanos();
    }

    /** Connections accepted so far. */
    public long connections() {
        return connections.get();
    }

    /** Bytes read so far, both directions (delivered or still in flight). */
    public long readBytes() {
        return readBytes.get();
    }

    /** Bytes delivered so far, both directions. */
    public long forwardedBytes() {
        return forwardedBytes.get();
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            connections.incrementAndGet();
            Socket upstream = new Socket();
            try {
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                upstream.connect(target, 10_000);
            } catch (IOException e) {
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            open.add(client);
            open.add(upstream);
            Connection c = new Connection(client, upstream);
            long n = connections.get();
            thread(name + "-" + n + "-up-read", () -> c.read(client, c.up)).start();
            thread(name + "-" + n + "-up-write", () -> c.write(c.up, upstream)).start();
            thread(name + "-" + n + "-down-read", () -> c.read(upstream, c.down)).start();
            thread(name + "-" + n + "-down-write", () -> c.write(c.down, client)).start();
        }
    }

    /** One proxied connection: two sockets, two delayed directions. */
    private final class Connection {
        final DelayQueue<Chunk> up = new DelayQueue<>();
        final DelayQueue<Chunk> down = new DelayQueue<>();
        final Socket client;
        final Socket upstream;
        private int directionsEnded;

        Connection(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        void read(Socket from, DelayQueue<Chunk> queue) {
            // not closed here: closing a socket's stream closes the socket, and the other direction still runs
            try {
                InputStream in = from.getInputStream();
                byte[] buffer = new byte[CHUNK];
                long lastDue = Long.MIN_VALUE;
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    lastDue = due(lastDue);
                    readBytes.addAndGet(n);
                    queue.put(new Chunk(lastDue, Arrays.copyOf(buffer, n)));
                }
                queue.put(new Chunk(due(lastDue), null));
            } catch (IOException e) {
                // reset or closed: pass the end on like an end of stream
                queue.put(new Chunk(System.nanoTime() + delayNanos, null));
            }
        }

        /** Now plus the delay, never before the previous chunk of the direction (a shortened delay must not reorder). */
        private long due(long previous) {
            long due = System.nanoTime() + delayNanos;
            return previous == Long.MIN_VALUE ? due : Math.max(due, previous);
        }

        void write(DelayQueue<Chunk> queue, Socket to) {
            try {
                OutputStream out = to.getOutputStream();
                while (true) {
                    Chunk chunk = queue.take();
                    if (chunk.bytes == null) {
                        to.shutdownOutput();
                        break;
                    }
                    out.write(chunk.bytes);
                    out.flush();
                    forwardedBytes.addAndGet(chunk.bytes.length);
                }
            } catch (SocketException e) {
                // the other side went away
            } catch (IOException e) {
                // as above
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            directionEnded();
        }

        private synchronized void directionEnded() {
            if (++directionsEnded == 2) {
                closeQuietly(client);
                closeQuietly(upstream);
                open.remove(client);
                open.remove(upstream);
            }
        }
    }

    /** Bytes read at one time, due {@code dueNanos} (System.nanoTime); null bytes: the end of the stream. */
    private static final class Chunk implements Delayed {
        private static final AtomicLong SEQUENCE = new AtomicLong();
        final long dueNanos;
        final byte[] bytes;
        final long sequence = SEQUENCE.incrementAndGet();

        Chunk(long dueNanos, byte[] bytes) {
            this.dueNanos = dueNanos;
            this.bytes = bytes;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            Chunk o = (Chunk) other;
            int byDue = Long.compare(dueNanos, o.dueNanos);
            return byDue != 0 ? byDue : Long.compare(sequence, o.sequence);
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        open.forEach(DelayingProxy::closeQuietly);
        open.clear();
    }

    private static Thread thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // closing anyway
        }
    }
}
