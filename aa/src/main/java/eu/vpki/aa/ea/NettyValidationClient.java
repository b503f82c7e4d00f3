package eu.vpki.aa.ea;

import eu.vpki.aa.core.AuthorizationValidationClient;
import eu.vpki.aa.core.EaCallException;
import eu.vpki.shell.etsi.AccessPoint;
import eu.vpki.shell.etsi.EventLoops;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@link AuthorizationValidationClient} on the service's {@link EventLoops}, the ones its access point server
 * reads stations' requests with: a call made on an event loop (the AA's authorization, which starts there)
 * goes out, and its answer comes back, on that same loop, without a thread waiting in between. HTTP/1.1 over
 * kept-alive connections, one request at a time each, pooled per event loop and EA access point (at most
 * {@code maxConnections} per access point over all loops; calls beyond wait for one); TLS for {@code https}
 * access points with the given trust and host name verification; a connect timeout and a timeout per call.
 * A call that fails on a kept-alive connection before its answer arrived (the EA closed the idle connection as
 * the call went out) is sent once more on a new connection: a validation reads and writes nothing at the EA, so
 * a second one is harmless.
 */
public final class NettyValidationClient implements AuthorizationValidationClient {
    private static final int MAX_RESPONSE_BYTES = 64 * 1024;
    /**
     * Headers of a call: the host of a URI already parsed, and constants; not checked again for each call (the
     * EA's answers are, by the decoder).
     */
    private static final HttpHeadersFactory OWN_HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);
    private static final HttpHeadersFactory OWN_TRAILERS = DefaultHttpHeadersFactory.trailersFactory().withValidation(false);
    /** A kept-alive connection idle this long is not reused (closed instead): below the EA's keep-alive timeout (60 s by default). */
    private static final long IDLE_NANOS = Duration.ofSeconds(30).toNanos();

    private final EventLoops loops;
    private final SslContext tls;
    private final int connectTimeoutMillis;
    private final long requestTimeoutNanos;
    private final int perLoop;
    /** Per event loop, its pools by access point origin; each inner map and what it holds is touched by that loop only. */
    private final Map<EventExecutor, Map<String, Pool>> pools = new ConcurrentHashMap<>();

    /**
     * @param tls            how an {@code https} access point's certificate is verified
     * @param maxConnections connections to one EA access point at most, over all event loops
     */
    public NettyValidationClient(EventLoops loops, Duration connectTimeout, Duration requestTimeout, int maxConnections, SSLContext tls) {
        this.loops = loops;
        this.tls = new JdkSslContext(tls, true, ClientAuth.NONE);
        this.connectTimeoutMillis = (int) Math.max(1, connectTimeout.toMillis());
        this.requestTimeoutNanos = requestTimeout.toNanos();
        int count = 0;
        for (EventExecutor ignored : loops.group()) {
            count++;
        }
        this.perLoop = Math.max(1, (maxConnections + count - 1) / count);
    }

    @Override
    public CompletableFuture<byte[]> validate(URI accessPoint, byte[] body) {
        Call call = new Call(accessPoint, body);
        EventLoop loop = currentLoop();
        if (loop.inEventLoop()) {
            send(loop, call, true);
        } else {
            loop.execute(() -> send(loop, call, true));
        }
        return call.result;
    }

    /** The event loop this thread is, or the next one. */
    private EventLoop currentLoop() {
        for (EventExecutor executor : loops.group()) {
            if (executor.inEventLoop()) {
                return (EventLoop) executor;
            }
        }
        return loops.group().next();
    }

    private final class Call {
        final URI uri;
        final byte[] body;
        final CompletableFuture<byte[]> result = new CompletableFuture<>();
        final String origin;
        boolean retried;
        ScheduledFuture<?> timeout;
        /** The connection it was sent on, once sent. */
        Channel on;

        Call(URI uri, byte[] body) {
            this.uri = uri;
            this.body = body;
            this.origin = uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getHost() + ":" + port(uri);
        }

        void fail(EaCallException.Reason reason, String message, Throwable cause) {
            if (timeout != null) {
                timeout.cancel(false);
            }
            result.completeExceptionally(new EaCallException(reason, uri + ": " + message, cause));
        }
    }

    /** The connections of one event loop to one access point origin. */
    private final class Pool {
        final ArrayDeque<Channel> idle = new ArrayDeque<>();
        final ArrayDeque<Call> waiting = new ArrayDeque<>();
        int open;

        /** The next call still waiting for a connection (one that timed out meanwhile is dropped). */
        Call nextWaiting() {
            for (Call next = waiting.poll(); next != null; next = waiting.poll()) {
                if (!next.result.isDone()) {
                    return next;
                }
            }
            return null;
        }
    }

    /** On {@code loop}: a kept-alive connection if one is idle, else a new one if the pool may grow, else the call waits. */
    private void send(EventLoop loop, Call call, boolean mayReuse) {
        if (call.timeout == null) {
            call.timeout = loop.schedule(() -> {
                call.fail(EaCallException.Reason.TIMEOUT, "no answer within " + Duration.ofNanos(requestTimeoutNanos), null);
                if (call.on != null) {
                    call.on.close(); // its answer, should it still come, is nobody's
                }
            }, requestTimeoutNanos, TimeUnit.NANOSECONDS);
        }
        if (call.result.isDone()) {
            return;
        }
        Pool pool = pools.computeIfAbsent(loop, l -> new HashMap<>()).computeIfAbsent(call.origin, o -> new Pool());
        if (mayReuse) {
            for (Channel idle = pool.idle.pollLast(); idle != null; idle = pool.idle.pollLast()) {
                Exchange exchange = idle.pipeline().get(Exchange.class);
                if (idle.isActive() && System.nanoTime() - exchange.idleSince < IDLE_NANOS) {
                    exchange.start(call, true);
                    return;
                }
                idle.close();
            }
        }
        if (pool.open >= perLoop) {
            pool.waiting.add(call);
            return;
        }
        connect(loop, pool, call);
    }

    private void connect(EventLoop loop, Pool pool, Call call) {
        pool.open++;
        boolean https = "https".equalsIgnoreCase(call.uri.getScheme());
        String host = call.uri.getHost();
        int port = port(call.uri);
        Exchange exchange = new Exchange(loop, pool);
        ChannelFuture connecting = new Bootstrap().group(loop).channel(loops.socketChannel())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        if (https) {
                            SslHandler handler = tls.newHandler(channel.alloc(), host, port);
                            SSLEngine engine = handler.engine();
                            SSLParameters parameters = engine.getSSLParameters();
                            parameters.setEndpointIdentificationAlgorithm("HTTPS");
                            engine.setSSLParameters(parameters);
                            channel.pipeline().addLast(handler);
                        }
                        channel.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_RESPONSE_BYTES), exchange);
                    }
                })
                .connect(host, port);
        connecting.channel().closeFuture().addListener(closed -> closed(loop, pool, connecting.channel()));
        connecting.addListener(connected -> {
            if (connected.isSuccess()) {
                exchange.start(call, false);
            } else {
                Throwable cause = connected.cause();
                call.fail(cause instanceof ConnectTimeoutException ? EaCallException.Reason.TIMEOUT : EaCallException.Reason.IO,
                        "cannot connect: " + cause, cause);
            }
        });
    }

    /** A connection closed: the pool may open another, for a waiting call. */
    private void closed(EventLoop loop, Pool pool, Channel channel) {
        pool.open--;
        pool.idle.remove(channel);
        Call next = pool.nextWaiting();
        if (next != null) {
            send(loop, next, true);
        }
    }

    /** One connection's handler: the call under way on it, its answer, and back to the pool. */
    private final class Exchange extends SimpleChannelInboundHandler<FullHttpResponse> {
        private final EventLoop loop;
        private final Pool pool;
        private Channel channel;
        private Call call;
        private boolean reused;
        long idleSince;

        Exchange(EventLoop loop, Pool pool) {
            this.loop = loop;
            this.pool = pool;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            channel = ctx.channel();
        }

        void start(Call call, boolean reused) {
            if (call.result.isDone()) { // timed out while waiting for this connection
                release();
                return;
            }
            this.call = call;
            this.reused = reused;
            call.on = channel;
            URI uri = call.uri;
            String target = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                    + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, target,
                    Unpooled.wrappedBuffer(call.body),
                    OWN_HEADERS, OWN_TRAILERS);
            request.headers().set(HttpHeaderNames.HOST, uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()))
                    .set(HttpHeaderNames.CONTENT_TYPE, AccessPoint.ITS_REQUEST)
                    .set(HttpHeaderNames.ACCEPT, AccessPoint.ITS_RESPONSE)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, call.body.length);
            channel.writeAndFlush(request).addListener(written -> {
                if (!written.isSuccess()) {
                    lost(written.cause());
                }
            });
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse response) {
            Call done = call;
            call = null;
            if (done == null) { // an answer nobody asked for
                ctx.close();
                return;
            }
            boolean keepAlive = HttpUtil.isKeepAlive(response) && response.decoderResult().isSuccess();
            if (!response.decoderResult().isSuccess()) {
                done.fail(EaCallException.Reason.IO, "unreadable HTTP answer: " + response.decoderResult().cause(),
                        response.decoderResult().cause());
            } else if (response.status().code() != 200) {
                done.fail(EaCallException.Reason.HTTP_STATUS, "answered HTTP " + response.status().code(), null);
            } else {
                String type = response.headers().get(HttpHeaderNames.CONTENT_TYPE, "");
                if (!type.toLowerCase(Locale.ROOT).split(";", 2)[0].trim().equals(AccessPoint.ITS_RESPONSE)) {
                    done.fail(EaCallException.Reason.CONTENT_TYPE, "answered Content-Type '" + type + "'", null);
                } else {
                    byte[] answer = ByteBufUtil.getBytes(response.content());
                    if (done.timeout != null) {
                        done.timeout.cancel(false);
                    }
                    if (keepAlive) {
                        release();
                    } else {
                        ctx.close();
                    }
                    done.result.complete(answer);
                    return;
                }
            }
            if (keepAlive) {
                release();
            } else {
                ctx.close();
            }
        }

        /** Back to the pool, or to a call waiting for a connection. */
        private void release() {
            Call next = pool.nextWaiting();
            if (next != null) {
                start(next, true);
                return;
            }
            idleSince = System.nanoTime();
            pool.idle.add(channel);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            lost(null);
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (cause instanceof TooLongFrameException && call != null) {
                Call done = call;
                call = null;
                done.fail(EaCallException.Reason.UNREADABLE_RESPONSE, "answered more than " + MAX_RESPONSE_BYTES + " bytes", cause);
            } else {
                lost(cause);
            }
            ctx.close();
        }

        /** The connection failed with a call under way: once more on a new connection if it was a kept-alive one, else failed. */
        private void lost(Throwable cause) {
            Call lostCall = call;
            call = null;
            if (lostCall == null || lostCall.result.isDone()) {
                return;
            }
            if (reused && !lostCall.retried) {
                lostCall.retried = true;
                channel.close();
                loop.execute(() -> send(loop, lostCall, false));
                return;
            }
            lostCall.fail(EaCallException.Reason.IO, "connection lost" + (cause == null ? "" : ": " + cause), cause);
        }
    }

    private static int port(URI uri) {
        return uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }
}
