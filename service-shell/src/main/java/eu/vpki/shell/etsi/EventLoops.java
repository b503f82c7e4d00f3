package eu.vpki.shell.etsi;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The I/O threads of a service's ETSI traffic: the {@link AccessPointServer}'s event loops, which the calls a
 * service makes while answering (the AA's authorization validation at the EA) share, so that a request, the
 * call it makes and its answer stay on one thread. Linux's epoll transport when its native library loads
 * (inside the Netty jar, linux-x86_64), else the JDK's NIO: {@link #transport()} says which.
 */
public final class EventLoops implements AutoCloseable {
    private final EventLoopGroup group;
    private final boolean epoll;
    private final int threads;

    /** {@code threads} event loops (at least 1); {@code nativeTransport}: use epoll where it loads. */
    public EventLoops(int threads, boolean nativeTransport) {
        if (threads < 1) {
            throw new IllegalArgumentException("at least one event loop, got " + threads);
        }
        this.threads = threads;
        this.epoll = nativeTransport && Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.group = new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory("vpki-etsi", true), io);
    }

    public EventLoopGroup group() {
        return group;
    }

    public Class<? extends ServerChannel> serverChannel() {
        return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public Class<? extends SocketChannel> socketChannel() {
        return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** For the start-up log: which transport and how many loops, and why not epoll when it is not. */
    public String transport() {
        if (epoll) {
            return "epoll, " + threads + " event loop" + (threads == 1 ? "" : "s");
        }
        Throwable why = Epoll.unavailabilityCause();
        return "NIO, " + threads + " event loop" + (threads == 1 ? "" : "s")
                + (why == null ? " (epoll not asked for)" : " (epoll unavailable: " + why.getMessage() + ")");
    }

    /** Stops the loops, letting tasks already queued run for at most {@code grace}. */
    public void shutdown(Duration grace) {
        group.shutdownGracefully(0, grace.toMillis(), TimeUnit.MILLISECONDS).awaitUninterruptibly(grace.toMillis() + 1000);
    }

    @Override
    public void close() {
        shutdown(Duration.ofSeconds(2));
    }
}
