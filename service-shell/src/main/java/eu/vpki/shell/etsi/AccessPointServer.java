package eu.vpki.shell.etsi;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.shell.limits.RequestBodyLimit;
import eu.vpki.shell.limits.RequestBodyLimits;
import eu.vpki.shell.problem.ProblemStatus;
import eu.vpki.shell.problem.Problems;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.DuplexChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;

import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The HTTP/1.1 server of a service's ETSI access points ({@link AccessPoint}), on Netty event loops
 * ({@link EventLoops}): a request is parsed, answered and written by the event loop that read it, without
 * handing it to another thread; an access point that {@linkplain AccessPoint#mayBlock() may block} runs on the
 * {@link AccessPointWorkers} instead. Why not the servlet container, and what was measured:
 * docs/design-access-point-server.md.
 *
 * <p>What it answers, per request, in the order it checks:
 * <ul>
 *   <li>a request the HTTP parser refuses (request line or headers over {@link Settings#maxHeaderBytes}, a
 *       malformed line or header), an HTTP/1.1 request without {@code Host}, one with both {@code Content-Length}
 *       and {@code Transfer-Encoding} or a transfer coding other than chunked: 400;</li>
 *   <li>a path that is no access point's: 404; another method than {@code POST}: 405 with {@code Allow: POST};
 *       another content type than {@code application/x-its-request}: 415; a declared {@code Content-Length} over
 *       the path's {@link RequestBodyLimit}, or a body that grows past it: 413 {@code OVERSIZE_INPUT}, before the
 *       body is read;</li>
 *   <li>otherwise the exchange's answer, HTTP 200 {@code application/x-its-response}; a {@code PkiException}
 *       the status of its code; any other failure 500 without detail (logged with its stack trace).</li>
 * </ul>
 * Every refusal is the services' RFC 7807 problem, logged on one line, and closes the connection (after
 * reading and discarding at most {@link Settings#maxSwallowBytes} of what the client still sends, so that it
 * gets the answer rather than a reset); an answer keeps it open unless the client asked otherwise or it
 * carried {@link Settings#maxKeepAliveRequests} requests. Requests a client pipelines are answered in order.
 * A connection that does not complete its request line and headers, or its body, within
 * {@link Settings#headerTimeout}, or stays idle between requests longer than
 * {@link Settings#keepAliveTimeout}, is closed. Beyond {@link Settings#maxConnections} open connections, new
 * ones are closed at once. With TLS, a client that speaks plain HTTP to the port gets a 400 in plain text.
 *
 * <p>Each request is timed as {@code vpki.access-point.requests} (tags {@code access-point} = its name, or
 * {@code none} for an unknown path; {@code status} = the HTTP status answered), from its headers to its
 * answer handed to the kernel.
 */
public final class AccessPointServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AccessPointServer.class);
    private static final Pattern SLASHES = Pattern.compile("/{2,}");
    private static final String NO_ACCESS_POINT = "none";
    /** Headers of an answer: only the constant names and values this class sets, not checked again for each answer. */
    private static final HttpHeadersFactory OWN_HEADERS = DefaultHttpHeadersFactory.headersFactory().withValidation(false);
    private static final HttpHeadersFactory OWN_TRAILERS = DefaultHttpHeadersFactory.trailersFactory().withValidation(false);

    /**
     * @param address              the address to bind ({@code server.address}; null or blank: every interface)
     * @param port                 the port ({@code server.port}; 0: any free port)
     * @param maxHeaderBytes       the longest request line, and the most bytes of headers ({@code server.max-http-request-header-size})
     * @param maxConnections       open connections at most ({@code server.tomcat.max-connections})
     * @param backlog              connections the kernel queues beyond those being accepted ({@code server.tomcat.accept-count})
     * @param headerTimeout        time to send a request after connecting or after its first byte ({@code server.tomcat.connection-timeout})
     * @param keepAliveTimeout     idle time between requests on a kept-alive connection ({@code server.tomcat.keep-alive-timeout})
     * @param maxKeepAliveRequests requests per connection ({@code server.tomcat.max-keep-alive-requests}; 0 or less: no limit)
     * @param maxSwallowBytes      what is still read and discarded after a refusal before the connection closes ({@code server.tomcat.max-swallow-size})
     */
    public record Settings(String address, int port, int maxHeaderBytes, int maxConnections, int backlog, Duration headerTimeout,
                           Duration keepAliveTimeout, int maxKeepAliveRequests, long maxSwallowBytes) {
        public Settings {
            if (port < 0 || port > 65535 || maxHeaderBytes < 256 || maxConnections < 1 || backlog < 1
                    || headerTimeout.isNegative() || headerTimeout.isZero() || keepAliveTimeout.isNegative() || keepAliveTimeout.isZero()
                    || maxSwallowBytes < 0) {
                throw new IllegalArgumentException("access point server settings out of range: " + this);
            }
        }
    }

    /** An access point with its limit and timers. */
    private record Served(AccessPoint point, RequestBodyLimit limit, Timer answered, Map<Integer, Timer> others) {
    }

    private final Settings settings;
    private final EventLoops loops;
    private final SslContext tls;
    private final Map<String, Served> byPath = new HashMap<>();
    private final MeterRegistry registry;
    private final Map<Integer, Timer> unmatched = new ConcurrentHashMap<>();
    private final Counter refusedConnections;
    private final AccessPointWorkers workers;
    private final ChannelGroup channels = new DefaultChannelGroup("vpki-access-points", GlobalEventExecutor.INSTANCE);
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    /** Notified when the last exchange under way has answered. */
    private final Object drained = new Object();
    private volatile boolean stopping;
    private Channel listening;

    /**
     * @param tls     the TLS the port speaks only (null: plain HTTP)
     * @param limits  the services' body limits ({@code RequestBodyLimit} beans): each access point gets its path's
     * @param workers where access points that {@linkplain AccessPoint#mayBlock() may block} run (the caller's to close)
     */
    public AccessPointServer(Settings settings, List<AccessPoint> points, RequestBodyLimits limits, EventLoops loops,
                             AccessPointWorkers workers, SslContext tls, MeterRegistry registry) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.loops = loops;
        this.tls = tls;
        this.registry = registry;
        for (AccessPoint point : points) {
            Served served = new Served(point, limits.limitOf(point.path()), timer(point.name(), HttpResponseStatus.OK.code()),
                    new ConcurrentHashMap<>());
            if (byPath.put(point.path(), served) != null) {
                throw new IllegalArgumentException("two access points at " + point.path());
            }
        }
        this.refusedConnections = Counter.builder("vpki.access-point.connections.refused")
                .description("connections closed at once because the server held its maximum").register(registry);
        this.workers = workers;
    }

    private Timer timer(String name, int status) {
        return Timer.builder("vpki.access-point.requests").description("ETSI access point requests, by HTTP status answered")
                .tag("access-point", name).tag("status", Integer.toString(status)).register(registry);
    }

    /** Binds the port and starts serving; the port bound. */
    public synchronized int start() {
        if (listening != null) {
            return port();
        }
        ServerBootstrap bootstrap = new ServerBootstrap().group(loops.group()).channel(loops.serverChannel())
                .option(ChannelOption.SO_BACKLOG, settings.backlog())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        Connection connection = new Connection();
                        if (tls != null) {
                            channel.pipeline().addLast("tls-only", new TlsOnly(connection));
                        }
                        channel.pipeline().addLast("bytes", connection.bytes)
                                .addLast("http-decoder", new RequestDecoder(settings.maxHeaderBytes()))
                                .addLast("http-encoder", new HttpResponseEncoder())
                                .addLast("access-points", connection);
                    }
                });
        InetSocketAddress address = settings.address() == null || settings.address().isBlank()
                ? new InetSocketAddress(settings.port())
                : new InetSocketAddress(settings.address(), settings.port());
        listening = bootstrap.bind(address).syncUninterruptibly().channel();
        log.info("ETSI access points {} on {}:{} ({}, {}; HTTP/1.1, Netty)", byPath.keySet(), address.getHostString(), port(),
                tls == null ? "plain HTTP" : "TLS only", loops.transport());
        return port();
    }

    /** The port bound (after {@link #start}). */
    public int port() {
        return ((InetSocketAddress) listening.localAddress()).getPort();
    }

    /**
     * Stops accepting connections, lets the exchanges under way answer for at most {@code grace}, then closes
     * every connection. The event loops are the caller's to stop.
     */
    public synchronized void stop(Duration grace) {
        stopping = true;
        if (listening != null) {
            listening.close().syncUninterruptibly();
        }
        long deadline = System.nanoTime() + grace.toNanos();
        synchronized (drained) {
            for (long left = grace.toMillis(); inFlight.get() > 0 && left > 0; left = (deadline - System.nanoTime()) / 1_000_000) {
                try {
                    drained.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        if (inFlight.get() > 0) {
            log.warn("ETSI access points stopped with {} requests unanswered after {}", inFlight.get(), grace);
        }
        channels.close().awaitUninterruptibly(grace.toMillis() + 1000);
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(5));
    }

    // ---- one connection ----

    /** A request read whole: what to answer it with, in the order the connection received it. */
    private record Request(Served served, byte[] body, boolean keepAlive, long startNanos) {
    }

    /**
     * A refusal decided before the body was read: answered in turn, and the connection closes. {@code method} and
     * {@code path} are the request's as read (null for a request the parser refused).
     */
    private record Refusal(Served served, String method, String path, HttpResponseStatus status, ErrorCode code, String detail,
                           String allow, long startNanos) {
    }

    /**
     * The state of one connection, touched by its event loop only. {@link #bytes} sits before the HTTP
     * decoder: it sees the first byte of each request (the header deadline starts there) and discards what a
     * closing connection still receives.
     */
    private final class Connection extends ChannelInboundHandlerAdapter {
        final ChannelInboundHandlerAdapter bytes = new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (draining) {
                    swallowed += msg instanceof ByteBuf b ? b.readableBytes() : 0;
                    ReferenceCountUtil.release(msg);
                    if (swallowed > settings.maxSwallowBytes()) {
                        ctx.close();
                    }
                    return;
                }
                if (!busy && head == null && waitingForRequest) {
                    waitingForRequest = false;
                    deadline(settings.headerTimeout());
                }
                ctx.fireChannelRead(msg);
            }
        };

        private ChannelHandlerContext ctx;
        private HttpRequest head;
        private Served target;
        /** The method and path of the request being read, for its refusal (null until its head is parsed). */
        private String method;
        private String path;
        private ByteBuf body;
        private long startNanos;
        /** An exchange runs, or its answer is being written: later requests wait in {@link #queued}. */
        private boolean busy;
        /** A refusal that closes the connection was decided: what still arrives is ignored. */
        private boolean closing;
        private boolean draining;
        private long swallowed;
        private boolean waitingForRequest = true;
        private int requests;
        private final ArrayDeque<Object> queued = new ArrayDeque<>(2);
        /** When the connection closes, on {@link System#nanoTime()}'s scale; 0: no deadline runs. */
        private long deadlineNanos;
        /** The check of {@link #deadlineNanos} scheduled, or null. */
        private ScheduledFuture<?> deadlineCheck;
        private final long checkAtMost = Math.min(settings.headerTimeout().toNanos(), settings.keepAliveTimeout().toNanos());

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (open.incrementAndGet() > settings.maxConnections() || stopping) {
                refusedConnections.increment();
                ctx.close();
                return;
            }
            channels.add(ctx.channel());
            deadline(settings.headerTimeout());
            ctx.fireChannelActive();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            open.decrementAndGet();
            stopDeadlineCheck();
            if (body != null) {
                body.release();
                body = null;
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log.debug("ETSI access point connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (closing) {
                    return;
                }
                if (msg instanceof HttpRequest request) {
                    begin(request);
                }
                if (msg instanceof HttpContent content && head != null && !closing) {
                    append(content);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void begin(HttpRequest request) {
            startNanos = System.nanoTime();
            target = null;
            method = null;
            path = null;
            if (request.decoderResult().isFailure()) {
                refuse(HttpResponseStatus.BAD_REQUEST, ErrorCode.INVALID_ARGUMENT,
                        "malformed HTTP request: " + request.decoderResult().cause().getMessage(), null);
                return;
            }
            method = request.method().name();
            path = path(request.uri());
            HttpHeaders headers = request.headers();
            if (request.protocolVersion().equals(HttpVersion.HTTP_1_1) && !headers.contains(HttpHeaderNames.HOST)) {
                refuse(HttpResponseStatus.BAD_REQUEST, ErrorCode.INVALID_ARGUMENT, "HTTP/1.1 request without Host", null);
                return;
            }
            List<String> codings = headers.getAll(HttpHeaderNames.TRANSFER_ENCODING);
            if (!codings.isEmpty() && (headers.contains(HttpHeaderNames.CONTENT_LENGTH) || codings.size() != 1
                    || !codings.get(0).trim().equalsIgnoreCase(HttpHeaderValues.CHUNKED.toString()))) {
                refuse(HttpResponseStatus.BAD_REQUEST, ErrorCode.INVALID_ARGUMENT,
                        "a body is framed by Content-Length or by Transfer-Encoding: chunked alone", null);
                return;
            }
            target = byPath.get(path);
            if (target == null) {
                refuse(HttpResponseStatus.NOT_FOUND, ErrorCode.NOT_FOUND, "no access point at " + path, null);
                return;
            }
            if (!HttpMethod.POST.equals(request.method())) {
                refuse(HttpResponseStatus.METHOD_NOT_ALLOWED, ProblemStatus.codeOf(HttpStatus.METHOD_NOT_ALLOWED),
                        "Request method '" + request.method() + "' is not supported", "POST");
                return;
            }
            String type = headers.get(HttpHeaderNames.CONTENT_TYPE);
            if (type == null || !AccessPoint.isItsRequest(type)) {
                refuse(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, ProblemStatus.codeOf(HttpStatus.UNSUPPORTED_MEDIA_TYPE),
                        "POST " + target.point().message() + " as " + AccessPoint.ITS_REQUEST + (type == null ? "" : ", not " + type),
                        null);
                return;
            }
            long declared = HttpUtil.getContentLength(request, -1L);
            long max = target.limit().maxBytes();
            if (declared > max) {
                refuse(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, ErrorCode.OVERSIZE_INPUT,
                        declared + " bytes declared, at most " + max + " (" + target.limit().name() + ")", null);
                return;
            }
            if (headers.contains(HttpHeaderNames.EXPECT)) {
                if (!HttpUtil.is100ContinueExpected(request)) {
                    refuse(HttpResponseStatus.EXPECTATION_FAILED, ErrorCode.INVALID_ARGUMENT, "only Expect: 100-continue is understood",
                            null);
                    return;
                }
                if (!busy) { // a client that pipelined sends its body without waiting for this
                    ctx.writeAndFlush(
                            new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER));
                }
            }
            head = request;
            body = Unpooled.buffer((int) Math.min(declared < 0 ? 1024 : declared, max));
        }

        private void append(HttpContent content) {
            ByteBuf data = content.content();
            if (body.readableBytes() + (long) data.readableBytes() > target.limit().maxBytes()) {
                refuse(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, ErrorCode.OVERSIZE_INPUT,
                        "body longer than " + target.limit().maxBytes() + " bytes (" + target.limit().name() + ")", null);
                return;
            }
            body.writeBytes(data);
            if (content instanceof LastHttpContent) {
                byte[] bytes = ByteBufUtil.getBytes(body);
                body.release();
                body = null;
                Request request = new Request(target, bytes, HttpUtil.isKeepAlive(head), startNanos);
                head = null;
                cancelDeadline();
                if (busy) {
                    pipelined(request);
                } else {
                    exchange(request);
                }
            }
        }

        private void refuse(HttpResponseStatus status, ErrorCode code, String detail, String allow) {
            Refusal refusal = new Refusal(target, method, path, status, code, detail, allow, startNanos);
            closing = true;
            head = null;
            if (body != null) {
                body.release();
                body = null;
            }
            if (busy) {
                pipelined(refusal);
            } else {
                answer(refusal);
            }
        }

        /** A request that came while another was being answered waits its turn; nothing more is read meanwhile. */
        private void pipelined(Object step) {
            queued.add(step);
            ctx.channel().config().setAutoRead(false);
        }

        private void exchange(Request request) {
            busy = true;
            requests++;
            inFlight.incrementAndGet();
            AccessPoint point = request.served().point();
            if (point.mayBlock()) {
                try {
                    workers.execute(() -> invoke(request));
                } catch (RejectedExecutionException full) {
                    answered(request, null, full);
                }
            } else {
                invoke(request);
            }
        }

        private void invoke(Request request) {
            CompletionStage<byte[]> stage;
            try {
                stage = request.served().point().exchange().answer(request.body());
            } catch (RuntimeException | Error e) {
                stage = CompletableFuture.failedFuture(e);
            }
            stage.whenComplete((answer, failure) -> {
                if (ctx.executor().inEventLoop()) {
                    answered(request, answer, failure);
                } else {
                    ctx.executor().execute(() -> answered(request, answer, failure));
                }
            });
        }

        private void answered(Request request, byte[] answer, Throwable failure) {
            if (inFlight.decrementAndGet() == 0 && stopping) {
                synchronized (drained) {
                    drained.notifyAll();
                }
            }
            Served served = request.served();
            boolean keepAlive = request.keepAlive() && !stopping
                    && (settings.maxKeepAliveRequests() <= 0 || requests < settings.maxKeepAliveRequests());
            if (failure == null) {
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        Unpooled.wrappedBuffer(answer),
                        OWN_HEADERS, OWN_TRAILERS);
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, AccessPoint.ITS_RESPONSE);
                send(response, keepAlive, served.answered(), request.startNanos());
                return;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            ProblemDetail problem = cause instanceof PkiException e
                    ? Problems.of(e.code(), e.getMessage())
                    : cause instanceof RejectedExecutionException
                            ? Problems.of(ErrorCode.UNAVAILABLE, "all " + workers.maxThreads() + " worker threads are busy")
                            : Problems.of(ErrorCode.INTERNAL_ERROR, ErrorCode.INTERNAL_ERROR.summary());
            logProblem("POST", served.point().path(), problem, cause);
            // a 4xx or 5xx of the exchange says nothing against the connection: it stays open
            send(problemResponse(problem, null), keepAlive, timerOf(served, problem.getStatus()), request.startNanos());
        }

        private void answer(Refusal refusal) {
            ProblemDetail problem = Problems.of(HttpStatus.valueOf(refusal.status().code()), refusal.code(), refusal.detail());
            logProblem(refusal.method(), refusal.path(), problem, null);
            send(problemResponse(problem, refusal.allow()), false, timerOf(refusal.served(), problem.getStatus()), refusal.startNanos());
        }

        private Timer timerOf(Served served, int status) {
            return served == null
                    ? unmatched.computeIfAbsent(status, s -> timer(NO_ACCESS_POINT, s))
                    : served.others().computeIfAbsent(status, s -> timer(served.point().name(), s));
        }

        private void send(FullHttpResponse response, boolean keepAlive, Timer timer, long startNanos) {
            HttpHeaders headers = response.headers();
            headers.setInt(HttpHeaderNames.CONTENT_LENGTH, response.content().readableBytes());
            headers.set(HttpHeaderNames.DATE, HttpDate.now());
            if (!keepAlive) {
                headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            }
            busy = true;
            ctx.writeAndFlush(response).addListener(written -> {
                timer.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
                if (!written.isSuccess()) {
                    ctx.close();
                } else if (!keepAlive) {
                    closeAfterAnswer();
                }
            });
            if (keepAlive) {
                busy = false;
                next();
            }
        }

        /** The next request a client pipelined, or reading again. */
        private void next() {
            Object step = queued.poll();
            if (step instanceof Request request) {
                exchange(request);
            } else if (step instanceof Refusal refusal) {
                answer(refusal);
            } else {
                waitingForRequest = true;
                deadline(settings.keepAliveTimeout());
                if (!ctx.channel().config().isAutoRead()) { // a client that pipelined: read on
                    ctx.channel().config().setAutoRead(true);
                }
            }
        }

        /** Half-closes the connection and discards what the client still sends, up to the swallow limit, until it closes too. */
        private void closeAfterAnswer() {
            cancelDeadline();
            closing = true;
            busy = false;
            if (ctx.channel() instanceof DuplexChannel duplex && duplex.isActive() && ctx.pipeline().get(SslHandler.class) == null) {
                draining = true;
                duplex.shutdownOutput();
                deadline(settings.headerTimeout());
                ctx.channel().config().setAutoRead(true);
            } else {
                ctx.close();
            }
        }

        /**
         * The connection closes {@code after} from now unless {@link #cancelDeadline} comes first (and nothing is
         * being answered then). Not a timer per request: one check per connection, never further ahead than the
         * shorter of the two timeouts, moves on to the deadline set last when it comes early. As every deadline is
         * at least that far ahead, a check already scheduled is never too late for a new one.
         */
        private void deadline(Duration after) {
            deadlineNanos = System.nanoTime() + after.toNanos();
            if (deadlineCheck == null) {
                checkIn(after.toNanos());
            }
        }

        private void cancelDeadline() {
            deadlineNanos = 0;
        }

        private void checkIn(long nanos) {
            deadlineCheck = ctx.executor().schedule(this::checkDeadline, Math.min(nanos, checkAtMost), TimeUnit.NANOSECONDS);
        }

        private void checkDeadline() {
            deadlineCheck = null;
            if (deadlineNanos == 0) {
                return;
            }
            long left = deadlineNanos - System.nanoTime();
            if (left > 0) {
                checkIn(left);
            } else {
                deadlineNanos = 0;
                if (!busy) {
                    ctx.close();
                }
            }
        }

        private void stopDeadlineCheck() {
            deadlineNanos = 0;
            if (deadlineCheck != null) {
                deadlineCheck.cancel(false);
                deadlineCheck = null;
            }
        }
    }

    private static FullHttpResponse problemResponse(ProblemDetail problem, String allow) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(problem.getStatus()),
                Unpooled.wrappedBuffer(Problems.json(problem)));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        Problems.headers(HttpStatus.valueOf(problem.getStatus())).forEach((name, values) -> response.headers().add(name, values));
        if (allow != null) {
            response.headers().set(HttpHeaderNames.ALLOW, allow);
        }
        return response;
    }

    /** Logged as the services log every problem: a 503 without stack trace, other 5xx with it, the rest on one INFO line. */
    private static void logProblem(String method, String path, ProblemDetail problem, Throwable cause) {
        String where = path == null ? "a malformed request" : method + " " + path;
        if (problem.getStatus() == 503) {
            log.warn("{} not served: {} {}: {}", where, problem.getStatus(), problem.getProperties().get("error"), problem.getDetail());
        } else if (problem.getStatus() >= 500) {
            log.error("{} failed: {} {}", where, problem.getStatus(), problem.getProperties().get("error"), cause);
        } else {
            log.info("{} refused: {} {}: {}", where, problem.getStatus(), problem.getProperties().get("error"), problem.getDetail());
        }
        try {
            if (path != null) {
                problem.setInstance(URI.create(path));
            }
        } catch (IllegalArgumentException notAUri) {
            // the problem goes without an instance
        }
    }

    /**
     * HTTP/1.1 requests, at most {@code maxHeaderBytes} of request line and of headers; a request that frames its body
     * both by {@code Content-Length} and by {@code Transfer-Encoding} is malformed (RFC 9112 section 6.3 lets a server
     * refuse it; the decoder would otherwise drop the length and trust the coding, and a proxy in front might not).
     */
    private static final class RequestDecoder extends HttpRequestDecoder {
        RequestDecoder(int maxHeaderBytes) {
            super(new HttpDecoderConfig().setMaxInitialLineLength(maxHeaderBytes).setMaxHeaderSize(maxHeaderBytes));
        }

        @Override
        protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
            throw new IllegalArgumentException("a body framed by both Content-Length and Transfer-Encoding");
        }
    }

    /** The request's path: percent-decoded, without query, runs of slashes as one. */
    static String path(String uri) {
        String path = new QueryStringDecoder(uri).path();
        return path.contains("//") ? SLASHES.matcher(path).replaceAll("/") : path;
    }

    /** The {@code Date} header's value, formatted once a second. */
    private static final class HttpDate {
        private record Stamp(long second, String text) {
        }

        private static volatile Stamp current = new Stamp(-1, "");

        static String now() {
            long millis = System.currentTimeMillis(); // HTTP's Date header: wall-clock time, nothing decided by it
            Stamp stamp = current;
            if (stamp.second() != millis / 1000) {
                stamp = new Stamp(millis / 1000, DateFormatter.format(new Date(millis)));
                current = stamp;
            }
            return stamp.text();
        }
    }

    /**
     * First handler of a TLS port: a connection whose first bytes are a TLS record goes on through TLS; one
     * that speaks plain HTTP gets a 400 problem in plain text and is closed (as the servlet container answered).
     */
    private final class TlsOnly extends ByteToMessageDecoder {
        private final Connection connection;

        TlsOnly(Connection connection) {
            this.connection = connection;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() < 5) { // a TLS record header decides
                return;
            }
            if (SslHandler.isEncrypted(in, false)) {
                ctx.pipeline().replace(this, "tls", tls.newHandler(ctx.alloc())); // what was read goes on to it
                return;
            }
            in.skipBytes(in.readableBytes());
            connection.closing = true;
            ProblemDetail problem = Problems.of(HttpStatus.BAD_REQUEST, ErrorCode.TLS_REQUIRED, "this port speaks TLS only");
            byte[] json = Problems.json(problem);
            String head = "HTTP/1.1 400 Bad Request\r\nContent-Type: " + MediaType.APPLICATION_PROBLEM_JSON_VALUE + "\r\nContent-Length: "
                    + json.length + "\r\nConnection: close\r\n\r\n";
            ctx.writeAndFlush(Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), json)).addListener(f -> ctx.close());
        }
    }
}
