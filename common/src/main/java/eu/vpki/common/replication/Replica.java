package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import io.micrometer.core.instrument.MeterRegistry;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPool;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One member of a replicated state machine: a JGroups channel plus this replica's own Redis.
 * Every replica applies every command, each origin's in order without gaps, to its own Redis, and
 * logs it there in the same atomic step.
 *
 * <p>Life cycle: {@link #connect()} joins the group with what this replica's Redis holds (nothing is
 * replaced: what it lacks it fetches from peers' logs, what they lack they fetch from its log); then
 * {@link #submit} and {@link #awaitApplied} work until {@link #close()}, while {@link #status()}
 * says whether it serves. If its Redis fails, the replica leaves the group, reports
 * {@link ReplicaStatus.State#FAILED}, and joins again by itself, as a new origin, once its Redis
 * answers.
 *
 * <p>Threads: JGroups threads only decode and enqueue; a single applier thread writes to Redis; the
 * submitting thread numbers and sends its command under a lock; a control thread runs the
 * anti-entropy every status interval and the recovery after a Redis failure; a server thread reads
 * the log for peers; futures returned by {@link #submit} complete on a completion thread, never on a
 * JGroups or applier thread ({@link #submitAndWait} wakes its caller directly). See
 * {@code docs/replication.md} and {@code docs/design-replication-recovery.md}.
 */
public final class Replica implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Replica.class);
    private static final Duration RECOVERY_INTERVAL = Duration.ofSeconds(1);
    /** How often the control thread reads its Redis's figures for the snapshot and the gauges ({@link #snapshot()}). */
    private static final Duration FIGURES_INTERVAL = Duration.ofSeconds(1);
    /**
     * The share of its Redis's {@code maxmemory} above which this replica refuses new writes of its own
     * ({@link ErrorCode#STORAGE_FULL}, nothing sent). The rest is headroom for what is already under way: the commands
     * of other origins, which every replica must apply, and the writes accepted between two reads of the figures (one a
     * second). At the limit itself Redis refuses the apply ({@code OOM command not allowed}) and the replica fails.
     */
    static final double WRITE_LIMIT = 0.95;

    private enum Lifecycle { NEW, CONNECTED, FAILED, CLOSED }

    private final ReplicationConfig config;
    private final RedisStateMachine stateMachine;
    private final CommandLog commandLog;
    private final JedisPool redis;
    private final Clock clock;
    private final ReplicationMetrics metrics;
    private final OriginAuthentication origins;
    /** This replica's credentials (null without TLS): each membership seals its other messages with them. */
    private final OriginCredentials credentials;
    private final ExecutorService completions;
    private final ExecutorService server;
    private final ScheduledExecutorService control;
    private volatile Lifecycle lifecycle = Lifecycle.NEW;
    private volatile Membership membership;
    private volatile RedisFigures redisFigures;
    private final long figuresMaxAgeNanos;
    /** The run id of the redis-server this membership joined with; another one means Redis restarted. */
    private volatile String redisRunId;
    private ScheduledFuture<?> recovery;

    /** A replica without TLS: its commands are neither signed nor checked. */
    public Replica(ReplicationConfig config, ReplicatedKeyspace keyspace, JedisPool redis, Clock clock,
                   MeterRegistry registry) {
        this(config, keyspace, redis, clock, registry, null);
    }

    /**
     * @param credentials how this replica signs its commands and checks other origins' (from the same key and trust
     *                    stores as {@link ReplicationConfig#tls()}); required with TLS, null without
     * @throws IllegalArgumentException if TLS is on without credentials, or the credentials are another replica's
     */
    public Replica(ReplicationConfig config, ReplicatedKeyspace keyspace, JedisPool redis, Clock clock,
                   MeterRegistry registry, OriginCredentials credentials) {
        if (config.tls().enabled() && credentials == null) {
            throw new IllegalArgumentException("replica " + config.replicaId() + " runs TLS but has no origin credentials:"
                    + " with TLS every command is signed by its origin (docs/design-replication-security.md)");
        }
        this.origins = OriginAuthentication.of(credentials, config.replicaId());
        this.credentials = credentials;
        this.config = config;
        this.redis = redis;
        this.stateMachine = new RedisStateMachine(redis, keyspace);
        this.commandLog = new CommandLog(redis, keyspace);
        this.clock = clock;
        // a few missed reads (a slow round) are not "unknown"; a Redis that stopped answering is within seconds
        this.figuresMaxAgeNanos = Math.max(Duration.ofSeconds(5).toNanos(), config.statusInterval().multipliedBy(4).toNanos());
        this.metrics = new ReplicationMetrics(registry, config, new ReplicationMetrics.Gauges() {
            @Override
            public int viewSize() {
                return Replica.this.viewSize();
            }

            @Override
            public int queued() {
                Membership current = membership;
                return current == null ? 0 : current.applier().queued();
            }

            @Override
            public ReplicaStatus status() {
                return Replica.this.status();
            }

            @Override
            public boolean coordinator() {
                return Replica.this.coordinator();
            }

            @Override
            public long commandLogLength() {
                return Replica.this.commandLogLength();
            }

            @Override
            public ReplicationSnapshot.RedisMemory redisMemory() {
                return Replica.this.redisMemory();
            }

            @Override
            public boolean stateIncomplete() {
                Membership current = membership;
                return current != null && current.antiEntropy().gate().incomplete();
            }
        });
        this.completions = Executors.newSingleThreadExecutor(daemon("vpki-complete-" + config.replicaId()));
        this.server = Executors.newSingleThreadExecutor(daemon("vpki-serve-" + config.replicaId()));
        this.control = Executors.newSingleThreadScheduledExecutor(daemon("vpki-control-" + config.replicaId()));
    }

    /**
     * Joins the group with what this replica's Redis holds. Returns once joined; the replica serves
     * once it caught up with a majority ({@link #status()}).
     *
     * @throws ReplicationException {@code STATE_TRANSFER_FAILED} if the group cannot be joined
     */
    public synchronized void connect() {
        if (lifecycle != Lifecycle.NEW) {
            throw new IllegalStateException("connect() is called once, replica is " + lifecycle);
        }
        try {
            membership = join();
        } catch (Exception e) {
            lifecycle = Lifecycle.CLOSED;
            shutdownThreads();
            throw new ReplicationException(ErrorCode.STATE_TRANSFER_FAILED,
                    "cannot join cluster " + config.clusterName() + " as " + config.replicaId(), e);
        }
        lifecycle = Lifecycle.CONNECTED;
        long interval = config.statusInterval().toMillis();
        control.scheduleWithFixedDelay(this::tick, 0, interval, TimeUnit.MILLISECONDS);
        log.info("replica {} joined {} as {} ({} order, {} propagation)", config.replicaId(), config.clusterName(),
                membership.origin(), config.order(), config.propagation());
    }

    /** A new membership with a new origin whose epoch is above every earlier one of this replica id. */
    private Membership join() throws Exception {
        redisRunId = stateMachine.serverRunId();
        Map<String, Long> applied = stateMachine.appliedSeqs();
        long epoch = clock.millis();
        for (String origin : applied.keySet()) {
            if (CommandId.replicaIdOf(origin).equals(config.replicaId())) {
                epoch = Math.max(epoch, CommandId.epochOf(origin) + 1);
            }
        }
        Membership joining = new Membership(config, CommandId.incarnation(config.replicaId(), epoch), stateMachine,
                commandLog, clock, metrics, origins, new SenderAuthentication(credentials, config.replicaId(), clock), server,
                this::viewChanged, this::failed);
        try {
            joining.join();
        } catch (Exception e) {
            joining.close();
            throw e;
        }
        return joining;
    }

    /**
     * Every status interval, on the control thread: is it still the same Redis (alive, not restarted:
     * a restarted one may have lost its last writes, which this membership believes applied), then the
     * anti-entropy round.
     */
    private void tick() {
        Membership current = membership;
        if (lifecycle != Lifecycle.CONNECTED || current == null) {
            return;
        }
        String runId;
        try {
            runId = stateMachine.serverRunId();
        } catch (RuntimeException e) {
            failed(new ReplicationException(ErrorCode.APPLY_FAILED, "Redis does not answer: " + e.getMessage(), e));
            return;
        }
        if (!runId.equals(redisRunId)) {
            failed(new ReplicationException(ErrorCode.APPLY_FAILED,
                    "Redis restarted (run id " + redisRunId + " is now " + runId + "): it may have lost writes"));
            return;
        }
        try {
            current.antiEntropy().tick();
        } catch (RuntimeException e) {
            log.warn("replica {}: anti-entropy round failed: {}", config.replicaId(), e.toString());
        }
        refreshRedisFigures(current);
    }

    private void viewChanged() {
        try {
            control.execute(this::tick);
        } catch (RejectedExecutionException e) {
            log.debug("replica {} closing, view change ignored", config.replicaId());
        }
    }

    /**
     * Replicates {@code operations} as one command: numbered and broadcast on the calling thread (one
     * sender at a time per replica), applied by every replica. Completes with the acknowledgement (SYNC:
     * a majority of the expected members applied it; ASYNC: this replica applied it) or exceptionally with
     * a {@link ReplicationException}, on this replica's completion thread, so continuations attached to
     * it never run on a JGroups or applier thread. Refused, with nothing sent, unless the replica serves, and
     * with a {@link PkiException} {@link ErrorCode#STORAGE_FULL} while its Redis uses more than {@link #WRITE_LIMIT}
     * of its {@code maxmemory}.
     *
     * @throws IllegalArgumentException if there are no operations or a key is outside the keyspace
     */
    public CompletableFuture<Acknowledgement> submit(List<Operation> operations) {
        return replicate(operations, completions);
    }

    /**
     * {@link #submit} and wait for the acknowledgement. The waiting thread is woken by the thread that
     * completes the command (the applier in ASYNC, a JGroups thread in SYNC), with no hand-over to the
     * completion thread: one thread switch less per command than {@code submit(..).get(..)}.
     *
     * @throws ExecutionException   with the {@link ReplicationException} as cause
     * @throws TimeoutException     if not acknowledged within {@code timeout} (outcome unknown)
     * @throws IllegalArgumentException if there are no operations or a key is outside the keyspace
     */
    public Acknowledgement submitAndWait(List<Operation> operations, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        return replicate(operations, Runnable::run).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Validates, numbers and sends; the result is completed through {@code completer}. */
    private CompletableFuture<Acknowledgement> replicate(List<Operation> operations, Executor completer) {
        List<Operation> command = List.copyOf(operations);
        if (command.isEmpty()) {
            throw new IllegalArgumentException("a command has at least one operation");
        }
        for (Operation operation : command) {
            if (!stateMachine.keyspace().isManaged(operation.key())) {
                throw new IllegalArgumentException("key " + operation.key() + " is outside " + stateMachine.keyspace().prefixes());
            }
            if (operation instanceof Operation.PutPointerIfNewer pointer && !stateMachine.keyspace().isManaged(pointer.targetPrefix())) {
                throw new IllegalArgumentException("pointer target prefix " + pointer.targetPrefix() + " is outside "
                        + stateMachine.keyspace().prefixes());
            }
        }
        CompletableFuture<Acknowledgement> result = new CompletableFuture<>();
        Membership current = membership;
        ReplicationException refusal = refusal();
        if (refusal != null || current == null) {
            result.completeExceptionally(refusal != null ? refusal : notConnected());
            return result;
        }
        String full = memoryFull();
        if (full != null) {
            result.completeExceptionally(new PkiException(ErrorCode.STORAGE_FULL, "replica " + config.replicaId() + ": " + full));
            return result;
        }
        long startedMillis = clock.millis();
        CompletableFuture<Acknowledgement> measured = result.whenComplete((ack, error) -> {
            if (error == null) {
                metrics.submitted(Duration.ofMillis(clock.millis() - startedMillis));
            }
        });
        current.send(command, result, completer, this::refusal, this::failed);
        return measured;
    }

    /**
     * Blocks until this replica has applied the command identified by {@code token} (from any replica's
     * {@link Acknowledgement}): read-your-writes on this replica's Redis.
     *
     * @throws ReplicationException {@code TIMEOUT_OUTCOME_UNKNOWN} if not applied within {@code timeout}
     */
    public void awaitApplied(CommandId token, Duration timeout) {
        Membership current = membership;
        if (current == null) {
            throw notConnected();
        }
        try {
            current.watermarks().whenApplied(token).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new ReplicationException(ErrorCode.TIMEOUT_OUTCOME_UNKNOWN,
                    token + " not applied on " + config.replicaId() + " within " + timeout);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof ReplicationException replication
                    ? replication
                    : new ReplicationException(ErrorCode.APPLY_FAILED, "waiting for " + token, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReplicationException(ErrorCode.TIMEOUT_OUTCOME_UNKNOWN,
                    "interrupted waiting for " + token);
        }
    }

    /** Whether this replica has applied the command identified by {@code token}. */
    public boolean hasApplied(CommandId token) {
        Membership current = membership;
        return current != null && current.watermarks().hasApplied(token);
    }

    /**
     * Tells {@code listener} of every write of this replica's state machine to its Redis from now on
     * (the applier's and state transfer's; nothing else writes the managed keys), before the write is
     * sent (the records a pointer rule superseded that no operation names: once Redis answered, see
     * {@link KeyWriteListener#writing}) and before the applier reports it applied.
     */
    public void listen(KeyWriteListener listener) {
        stateMachine.listen(listener);
    }

    /** This replica's id. */
    public String id() {
        return config.replicaId();
    }

    /** The origin of this replica's commands now (its current incarnation); empty before it joined. */
    public String origin() {
        Membership current = membership;
        return current == null ? "" : current.origin();
    }

    /** The channel, for tests in this package that inject faults into its protocol stack. */
    JChannel channel() {
        Membership current = membership;
        return current == null ? null : current.channel();
    }

    /** Whether this replica serves: writes are accepted and reads answer from a complete state. */
    public boolean acceptsWrites() {
        return status().serving();
    }

    /** Members in the current view (0 when not a member). */
    public int viewSize() {
        Membership current = membership;
        return current == null || lifecycle != Lifecycle.CONNECTED ? 0 : current.viewSize();
    }

    /**
     * What this replica is doing now: serving, catching up, holding a gap, cut off in a minority,
     * failed. Cheap; meant for health indicators and for gating every request.
     */
    public ReplicaStatus status() {
        Membership current = membership;
        Lifecycle state = lifecycle;
        String origin = current == null ? "" : current.origin();
        int view = viewSize();
        int expected = config.expectedMembers();
        if (state == Lifecycle.CLOSED) {
            return new ReplicaStatus(ReplicaStatus.State.CLOSED, config.replicaId(), origin, 0, expected, 0, 0, "closed");
        }
        if (state == Lifecycle.FAILED) {
            return new ReplicaStatus(ReplicaStatus.State.FAILED, config.replicaId(), origin, 0, expected, 0, 0,
                    "its Redis failed; rejoining once it answers");
        }
        if (state == Lifecycle.NEW || current == null) {
            return new ReplicaStatus(ReplicaStatus.State.STARTING, config.replicaId(), origin, 0, expected, 0, 0, "not joined yet");
        }
        long now = System.nanoTime();
        Map<String, Applier.Gap> gaps = current.applier().gaps();
        int held = 0;
        for (Applier.Gap gap : gaps.values()) { // asked by every request a replica serves: no stream
            held += gap.held();
        }
        long missing = current.antiEntropy().missing();
        ServingGate.Verdict verdict = current.antiEntropy().gate().verdict(now, view, gaps);
        String refused = current.applier().storageRefused();
        if (refused != null) {
            // nothing is applied until its Redis has room: what it holds falls behind, it must not serve it
            return new ReplicaStatus(ReplicaStatus.State.CATCHING_UP, config.replicaId(), origin, view, expected, missing, held,
                    refused + "; nothing is applied until memory is freed or maxmemory raised");
        }
        String full = verdict.state() == ReplicaStatus.State.SERVING ? memoryFull() : null;
        return new ReplicaStatus(verdict.state(), config.replicaId(), origin, view, expected, missing, held,
                full == null ? verdict.detail() : "serving reads; writes refused: " + full);
    }

    /**
     * Why this replica refuses writes for lack of memory: its Redis uses more than {@link #WRITE_LIMIT} of its
     * {@code maxmemory} as last read (at most a second or so before); null when it does not, has no limit, or the
     * figures are unknown.
     */
    private String memoryFull() {
        ReplicationSnapshot.RedisMemory memory = redisMemory();
        if (memory == null || memory.maxBytes() <= 0 || memory.usedBytes() < WRITE_LIMIT * memory.maxBytes()) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "its Redis uses %,d of its maxmemory %,d bytes (%.1f %%, writes stop at %.0f %%)",
                memory.usedBytes(), memory.maxBytes(), 100.0 * memory.usedBytes() / memory.maxBytes(), 100 * WRITE_LIMIT);
    }

    /**
     * What this replica knows of the group now, for an operator or a monitoring tool: the view and its
     * coordinator, each member's applied positions (from its latest report) and how far behind it is,
     * the serving gate and why it is closed, this replica's command log, gaps and hold-back, its Redis's
     * memory. Never waits on Redis: the log lengths and the memory are those the control thread read at most a second
     * or so before; when they are older than a few seconds (Redis does not answer) they are -1 or {@code null}.
     */
    public ReplicationSnapshot snapshot() {
        ReplicaStatus status = status();
        Membership current = membership;
        ReplicationSnapshot.RedisMemory memory = redisMemory();
        View view = current == null || lifecycle != Lifecycle.CONNECTED ? null : current.view();
        if (view == null) {
            return new ReplicationSnapshot(clock.instant(), config.clusterName(), status, "", "", List.of(), List.of(), 0, memory);
        }
        long now = System.nanoTime();
        Address self = current.channel().getAddress();
        Map<Address, PeerReports.Heard> heard = current.antiEntropy().heard();
        List<ReplicationSnapshot.Member> members = new ArrayList<>();
        for (Address member : view.getMembers()) {
            boolean coordinator = member.equals(view.getCoord());
            PeerReports.Heard report = heard.get(member);
            if (member.equals(self)) {
                members.add(new ReplicationSnapshot.Member(config.replicaId(), current.origin(), true, coordinator, status.serving(), 0,
                        current.watermarks().snapshot(), 0));
            } else if (report == null) {
                members.add(new ReplicationSnapshot.Member(String.valueOf(member), "", false, coordinator, false, -1, Map.of(), 0));
            } else {
                members.add(new ReplicationSnapshot.Member(report.report().replicaId(), report.report().origin(), false, coordinator,
                        report.report().serving(), TimeUnit.NANOSECONDS.toMillis(now - report.nanos()), report.report().applied(), 0));
            }
        }
        members = ReplicationSnapshot.withBehind(members);
        Map<String, Long> newest = ReplicationSnapshot.newest(members);
        Map<String, Long> applied = current.watermarks().snapshot();
        Map<String, Applier.Gap> gaps = current.applier().gaps();
        java.util.SortedSet<String> origins = new java.util.TreeSet<>(applied.keySet());
        origins.addAll(newest.keySet());
        origins.addAll(gaps.keySet());
        RedisFigures figures = freshRedisFigures();
        List<ReplicationSnapshot.OriginPosition> positions = new ArrayList<>();
        for (String of : origins) {
            Applier.Gap gap = gaps.get(of);
            long own = applied.getOrDefault(of, 0L);
            long length = figures == null ? -1 : figures.logLengths().getOrDefault(of, -1L);
            positions.add(new ReplicationSnapshot.OriginPosition(of, own, Math.max(own, newest.getOrDefault(of, 0L)),
                    current.antiEntropy().cachedLogFirst(of), length, gap == null ? 0 : gap.from(), gap == null ? 0 : gap.held()));
        }
        return new ReplicationSnapshot(clock.instant(), config.clusterName(), status, String.valueOf(view.getViewId()),
                String.valueOf(view.getCoord()), members, positions, current.applier().queued(), memory);
    }

    /**
     * What the control thread last read from this replica's Redis for the snapshot and the gauges: its memory and the
     * length of its command log per origin. Read there, at most once a second, so that neither a scrape nor
     * {@code /actuator/replication} ever waits on a Redis that hangs; older than {@link #figuresMaxAgeNanos} (Redis
     * stopped answering, or the replica left the group), they are unknown.
     */
    private record RedisFigures(long readNanos, ReplicationSnapshot.RedisMemory memory, Map<String, Long> logLengths) {
        long logLength() {
            return logLengths.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** On the control thread after each anti-entropy round: reads the figures again if the last read is a second old. */
    private void refreshRedisFigures(Membership current) {
        long now = System.nanoTime();
        RedisFigures last = redisFigures;
        if (last != null && now - last.readNanos() < FIGURES_INTERVAL.toNanos()) {
            return;
        }
        try {
            Map<String, Long> lengths = new java.util.HashMap<>();
            for (String of : current.watermarks().snapshot().keySet()) {
                lengths.put(of, commandLog.length(of));
            }
            redisFigures = new RedisFigures(now, stateMachine.memory(), Map.copyOf(lengths));
        } catch (RuntimeException e) {
            log.debug("replica {}: cannot read its Redis's figures: {}", config.replicaId(), e.toString());
        }
    }

    /** The figures if read recently enough; null otherwise. */
    private RedisFigures freshRedisFigures() {
        RedisFigures figures = redisFigures;
        return figures == null || lifecycle != Lifecycle.CONNECTED || System.nanoTime() - figures.readNanos() > figuresMaxAgeNanos
                ? null
                : figures;
    }

    /** Commands in this replica's command log over every origin it applied; -1 when unknown (its Redis does not answer). */
    long commandLogLength() {
        RedisFigures figures = freshRedisFigures();
        return figures == null ? -1 : figures.logLength();
    }

    /** Its Redis's memory; null when unknown (its Redis does not answer). */
    ReplicationSnapshot.RedisMemory redisMemory() {
        RedisFigures figures = freshRedisFigures();
        return figures == null ? null : figures.memory();
    }

    /** Whether this replica coordinates its current view. */
    boolean coordinator() {
        Membership current = membership;
        View view = current == null || lifecycle != Lifecycle.CONNECTED ? null : current.view();
        return view != null && view.getCoord() != null && view.getCoord().equals(current.channel().getAddress());
    }

    /** The SHA-256 digest of this replica's replicated state (see {@link RedisStateMachine#digest()}). */
    public String stateDigest() {
        return stateMachine.digest();
    }

    /** Leaves the cluster and stops all threads. Idempotent. */
    @Override
    public synchronized void close() {
        if (lifecycle == Lifecycle.CLOSED) {
            return;
        }
        lifecycle = Lifecycle.CLOSED;
        Membership current = membership;
        if (current != null) {
            current.close(notConnected());
        }
        shutdownThreads();
    }

    private void shutdownThreads() {
        control.shutdownNow();
        server.shutdownNow();
        completions.shutdown();
    }

    private ReplicationException refusal() {
        ReplicaStatus status = status();
        return switch (status.state()) {
            case SERVING -> null;
            case MINORITY -> new ReplicationException(ErrorCode.NO_MAJORITY,
                    "replica " + config.replicaId() + ": " + status.detail());
            case GAP, CATCHING_UP -> new ReplicationException(ErrorCode.NOT_SERVING,
                    "replica " + config.replicaId() + " is catching up: " + status.detail());
            default -> notConnected();
        };
    }

    private ReplicationException notConnected() {
        return new ReplicationException(ErrorCode.NOT_CONNECTED,
                "replica " + config.replicaId() + " is " + status().state());
    }

    /**
     * Called on the applier thread when this replica's Redis failed (or on a submitting thread when a
     * command could not be sent): leave the group so the others carry on, and join again, as a new
     * origin, once Redis answers.
     */
    private void failed(RuntimeException cause) {
        synchronized (this) {
            if (lifecycle != Lifecycle.CONNECTED) {
                return;
            }
            lifecycle = Lifecycle.FAILED;
        }
        log.error("replica {} leaves the group: {}", config.replicaId(), cause.getMessage());
        try {
            control.execute(() -> {
                Membership current = membership;
                if (current != null) {
                    current.close(cause);
                }
                recovery = control.scheduleWithFixedDelay(this::recover, RECOVERY_INTERVAL.toMillis(),
                        RECOVERY_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
            });
        } catch (RejectedExecutionException e) {
            log.debug("replica {} already closing", config.replicaId());
        }
    }

    /** On the control thread, every second while FAILED: once Redis answers, join again. */
    private void recover() {
        synchronized (this) {
            if (lifecycle != Lifecycle.FAILED) {
                return;
            }
        }
        redis.clear(); // connections to the Redis that failed are dead; new ones reach the restarted one
        try (Jedis jedis = redis.getResource()) {
            jedis.ping();
        } catch (RuntimeException e) {
            log.debug("replica {}: Redis still unavailable: {}", config.replicaId(), e.toString());
            return;
        }
        try {
            Membership joined = join();
            synchronized (this) {
                if (lifecycle != Lifecycle.FAILED) {
                    joined.close();
                    return;
                }
                membership = joined;
                lifecycle = Lifecycle.CONNECTED;
            }
            recovery.cancel(false);
            log.info("replica {} rejoined {} as {} after its Redis failure", config.replicaId(), config.clusterName(),
                    joined.origin());
        } catch (Exception e) {
            log.warn("replica {} could not rejoin yet: {}", config.replicaId(), e.toString());
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
