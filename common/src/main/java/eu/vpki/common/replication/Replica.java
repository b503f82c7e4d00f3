package eu.vpki.common.replication;

import io.micrometer.core.instrument.MeterRegistry;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.MergeView;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.SuspectedException;
import org.jgroups.UnreachableException;
import org.jgroups.View;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.RequestHandler;
import org.jgroups.blocks.RequestOptions;
import org.jgroups.blocks.ResponseMode;
import org.jgroups.blocks.Response;
import org.jgroups.util.NameCache;
import org.jgroups.util.Rsp;
import org.jgroups.util.RspList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.JedisPool;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One member of a replicated state machine: a JGroups channel plus this replica's own Redis.
 * Every replica applies every command, in delivery order, to its own Redis.
 *
 * <p>Life cycle: {@link #connect()} joins the cluster and, if others are running, replaces this
 * replica's managed keys with theirs (JGroups {@code STATE}); then {@link #submit} and
 * {@link #awaitApplied} work until {@link #close()}. If the replica's Redis fails, the replica leaves
 * the cluster; create a new one to rejoin (it will fetch the state).
 *
 * <p>Threads: JGroups threads only decode and enqueue; a single applier thread writes to Redis; the
 * submitting thread numbers and sends its command under a lock (so per-origin sequence numbers are
 * sent in order); a control thread reloads state after a merge and redelivers a departed member's last
 * commands; futures returned by {@link #submit} complete on a completion thread, never on a JGroups or
 * applier thread ({@link #submitAndWait} wakes its caller directly). See {@code docs/replication.md}.
 */
public final class Replica implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Replica.class);
    /** Per origin: the commands kept for redelivery (a survivor lags another by far fewer). */
    private static final int RECENT_COMMANDS = 1_024;
    private static final long RECENT_BYTES = 8L * 1024 * 1024;

    private enum Status { NEW, CONNECTED, FAILED, CLOSED }

    private final ReplicationConfig config;
    private final ReplicatedKeyspace keyspace;
    private final RedisStateMachine stateMachine;
    private final Clock clock;
    private final AppliedWatermarks watermarks = new AppliedWatermarks();
    private final ReplicationMetrics metrics;
    private final Applier applier;
    private final AtomicLong lastSeq = new AtomicLong();
    /** Each origin's last commands as delivered here, for survivors' redelivery when it leaves. */
    private final RecentDeliveries recent = new RecentDeliveries(RECENT_COMMANDS, RECENT_BYTES);
    private final Object sendLock = new Object();
    private final ExecutorService completions;
    private final ExecutorService control;
    private volatile Status status = Status.NEW;
    private volatile String failure = "";
    private volatile View view;
    private JChannel channel;
    private MessageDispatcher dispatcher;

    public Replica(ReplicationConfig config, ReplicatedKeyspace keyspace, JedisPool redis, Clock clock,
                   MeterRegistry registry) {
        this.config = config;
        this.keyspace = keyspace;
        this.stateMachine = new RedisStateMachine(redis, keyspace);
        this.clock = clock;
        this.metrics = new ReplicationMetrics(registry, config, this::viewSize, this::applyQueueSize);
        this.applier = new Applier(config.replicaId(), config.effectiveApplyGrouping(), stateMachine, watermarks, metrics, clock, this::failed);
        this.completions = singleThread("vpki-complete-" + config.replicaId());
        this.control = singleThread("vpki-control-" + config.replicaId());
    }

    /**
     * Joins the cluster; if other members exist, fetches their state first (replacing this replica's
     * managed keys), then starts applying. Blocks for at most the state-transfer timeout.
     */
    public synchronized void connect() {
        if (status != Status.NEW) {
            throw new IllegalStateException("connect() is called once, replica is " + status);
        }
        try {
            channel = new JChannel(JGroupsStack.configure(config)).name(config.replicaId());
            dispatcher = new MessageDispatcher(channel, new CommandHandler())
                    .setReceiver(new MembershipReceiver())
                    .asyncDispatching(true);
            channel.connect(config.clusterName(), null, config.timeouts().stateTransfer().toMillis());
        } catch (Exception e) {
            closeChannel();
            status = Status.CLOSED;
            throw new ReplicationException(ReplicationException.Code.STATE_TRANSFER_FAILED,
                    "cannot join cluster " + config.clusterName() + " as " + config.replicaId(), e);
        }
        Map<String, Long> applied = stateMachine.appliedSeqs();
        watermarks.advanceAll(applied);
        lastSeq.accumulateAndGet(applied.getOrDefault(config.replicaId(), 0L), Math::max);
        applier.start();
        status = Status.CONNECTED;
        log.info("replica {} joined {} ({} order, {} propagation), view {}", config.replicaId(),
                config.clusterName(), config.order(), config.propagation(), view);
    }

    /**
     * Replicates {@code operations} as one command: numbered and broadcast on the calling thread (one
     * sender at a time per replica), applied by every replica. Completes with the acknowledgement (SYNC:
     * every member applied it; ASYNC: this replica applied it) or exceptionally with a
     * {@link ReplicationException}, on this replica's completion thread, so continuations attached to it
     * never run on a JGroups or applier thread.
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
            if (!keyspace.isManaged(operation.key())) {
                throw new IllegalArgumentException("key " + operation.key() + " is outside " + keyspace.prefixes());
            }
        }
        CompletableFuture<Acknowledgement> result = new CompletableFuture<>();
        ReplicationException refusal = refusal();
        if (refusal != null) {
            result.completeExceptionally(refusal);
            return result;
        }
        long startedMillis = clock.millis();
        CompletableFuture<Acknowledgement> measured = result.whenComplete((ack, error) -> {
            if (error == null) {
                metrics.submitted(Duration.ofMillis(clock.millis() - startedMillis));
            }
        });
        send(command, result, completer);
        return measured;
    }

    /**
     * Blocks until this replica has applied the command identified by {@code token} (from any replica's
     * {@link Acknowledgement}): read-your-writes on this replica's Redis.
     *
     * @throws ReplicationException {@code TIMEOUT_OUTCOME_UNKNOWN} if not applied within {@code timeout}
     */
    public void awaitApplied(CommandId token, Duration timeout) {
        try {
            watermarks.whenApplied(token).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new ReplicationException(ReplicationException.Code.TIMEOUT_OUTCOME_UNKNOWN,
                    token + " not applied on " + config.replicaId() + " within " + timeout);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof ReplicationException replication ? replication
                    : new ReplicationException(ReplicationException.Code.APPLY_FAILED, "waiting for " + token, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReplicationException(ReplicationException.Code.TIMEOUT_OUTCOME_UNKNOWN,
                    "interrupted waiting for " + token);
        }
    }

    /** Whether this replica has applied the command identified by {@code token}. */
    public boolean hasApplied(CommandId token) {
        return watermarks.hasApplied(token);
    }

    /** This replica's id (the origin of its commands). */
    public String id() {
        return config.replicaId();
    }

    /** The channel, for tests in this package that inject faults into its protocol stack. */
    JChannel channel() {
        return channel;
    }

    /** Whether this replica is connected and its view holds a majority of the expected members. */
    public boolean acceptsWrites() {
        return refusal() == null;
    }

    /** What this replica can do now (for health checks). */
    public ReplicaStatus status() {
        int members = viewSize();
        return switch (status) {
            case NEW -> new ReplicaStatus(ReplicaStatus.State.JOINING, members, config.expectedMembers(), "joining the group");
            case FAILED -> new ReplicaStatus(ReplicaStatus.State.FAILED, members, config.expectedMembers(), failure);
            case CLOSED -> new ReplicaStatus(ReplicaStatus.State.CLOSED, members, config.expectedMembers(), "closed");
            case CONNECTED -> config.isMajority(members)
                    ? new ReplicaStatus(ReplicaStatus.State.ACTIVE, members, config.expectedMembers(), "")
                    : new ReplicaStatus(ReplicaStatus.State.MINORITY, members, config.expectedMembers(), "view of " + members
                    + " members holds no majority of the " + config.expectedMembers() + " expected");
        };
    }

    /** Members in the current view (0 when not connected). */
    public int viewSize() {
        View current = view;
        return current == null || status == Status.CLOSED || status == Status.FAILED ? 0 : current.size();
    }

    /** The SHA-256 digest of this replica's replicated state (see {@link RedisStateMachine#digest()}). */
    public String stateDigest() {
        return stateMachine.digest();
    }

    /** Leaves the cluster and stops all threads. Idempotent. */
    @Override
    public synchronized void close() {
        if (status == Status.CLOSED) {
            return;
        }
        status = Status.CLOSED;
        closeChannel();
        shutdownThreads();
    }

    private void shutdownThreads() {
        applier.stop();
        control.shutdownNow();
        watermarks.failAll(notConnected());
        completions.shutdown();
    }

    private ReplicationException refusal() {
        if (status != Status.CONNECTED) {
            return notConnected();
        }
        int members = viewSize();
        if (!config.isMajority(members)) {
            return new ReplicationException(ReplicationException.Code.NO_MAJORITY, "view of " + members
                    + " members holds no majority of the " + config.expectedMembers() + " expected");
        }
        return null;
    }

    private ReplicationException notConnected() {
        return new ReplicationException(ReplicationException.Code.NOT_CONNECTED,
                "replica " + config.replicaId() + " is " + status);
    }

    private int applyQueueSize() {
        return applier.queued();
    }

    /**
     * Number, encode, broadcast, under {@link #sendLock}: one origin's sequence numbers must reach
     * JGroups in order (SEQUENCER and NAKACK2 keep the order they are handed). JGroups does not block
     * here except under flow control, which then throttles every sender of this replica alike.
     */
    private void send(List<Operation> operations, CompletableFuture<Acknowledgement> result, Executor completer) {
        synchronized (sendLock) {
            ReplicationException refusal = refusal();
            if (refusal != null) {
                completeExceptionally(result, refusal, completer);
                return;
            }
            Command command = new Command(new CommandId(config.replicaId(), lastSeq.incrementAndGet()), clock.millis(),
                    operations);
            cast(command, result, completer);
        }
    }

    private void cast(Command command, CompletableFuture<Acknowledgement> result, Executor completer) {
        Message message = new BytesMessage(null, CommandCodec.encode(command));
        long timeoutMillis = config.timeouts().reply().toMillis();
        try {
            if (config.propagation() == ReplicationConfig.Propagation.SYNC) {
                RequestOptions options = new RequestOptions(ResponseMode.GET_ALL, phaseTimeoutMillis());
                dispatcher.<Object>castMessageWithFuture(null, message, options)
                        .orTimeout(phaseTimeoutMillis(), TimeUnit.MILLISECONDS)
                        .whenComplete((responses, error) -> completeSync(result, command, responses, error, completer));
            } else {
                CompletableFuture<Void> appliedHere = watermarks.whenApplied(command.id());
                dispatcher.castMessage(null, message, new RequestOptions(ResponseMode.GET_NONE, timeoutMillis));
                appliedHere.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((done, error) -> {
                    if (error == null) {
                        complete(result, new Acknowledgement(command.id(), 1), completer);
                    } else {
                        completeExceptionally(result, outcomeUnknown(command, error), completer);
                    }
                });
            }
        } catch (Exception e) {
            completeExceptionally(result, status == Status.CONNECTED ? outcomeUnknown(command, e) : notConnected(), completer);
        }
    }

    /**
     * Phase 1 answers (GET_ALL) are in {@code responses}, or {@code error} if they did not all arrive in
     * half the reply timeout. Members that did not answer and are still in the view are asked directly
     * whether they applied the command (phase 2): a member that joined while the command was in flight
     * got it inside its state snapshot, so it never answers phase 1 but does confirm in phase 2.
     */
    private void completeSync(CompletableFuture<Acknowledgement> result, Command command,
                              RspList<Object> responses, Throwable error, Executor completer) {
        int confirmed = 0;
        List<Address> unconfirmed = new ArrayList<>();
        if (error != null) {
            if (!(unwrap(error) instanceof TimeoutException)) {
                completeExceptionally(result, outcomeUnknown(command, error), completer);
                return;
            }
            View current = view;
            if (current != null) {
                unconfirmed.addAll(current.getMembers());
            }
        } else {
            for (Map.Entry<Address, Rsp<Object>> entry : responses.entrySet()) {
                Rsp<Object> response = entry.getValue();
                if (response.hasException()) {
                    if (entry.getKey().equals(channel.getAddress())) {
                        completeExceptionally(result, new ReplicationException(ReplicationException.Code.APPLY_FAILED,
                                command.id() + " could not be applied here", response.getException()), completer);
                        return;
                    }
                    // that member's Redis failed: it leaves the cluster and reloads the state when it rejoins
                    log.warn("{} failed to apply {}: {}", entry.getKey(), command.id(), response.getException().toString());
                } else if (response.wasReceived()) {
                    confirmed++;
                } else if (!response.wasSuspected() && !response.wasUnreachable()) {
                    unconfirmed.add(entry.getKey());
                }
            }
        }
        if (unconfirmed.isEmpty()) {
            acknowledgeIfMajority(result, command, confirmed, completer);
            return;
        }
        int confirmedFirst = confirmed;
        confirmApplied(command.id(), unconfirmed).whenComplete((more, failure) -> {
            if (failure != null) {
                completeExceptionally(result, outcomeUnknown(command, failure), completer);
            } else {
                acknowledgeIfMajority(result, command, confirmedFirst + more, completer);
            }
        });
    }

    private void acknowledgeIfMajority(CompletableFuture<Acknowledgement> result, Command command, int confirmed,
                                       Executor completer) {
        if (config.isMajority(confirmed)) {
            complete(result, new Acknowledgement(command.id(), confirmed), completer);
        } else {
            completeExceptionally(result, new ReplicationException(ReplicationException.Code.TIMEOUT_OUTCOME_UNKNOWN,
                    command.id() + " confirmed by only " + confirmed + " of " + config.expectedMembers()
                            + " expected members"), completer);
        }
    }

    /** Asks each of {@code members} whether it applied {@code id}; completes with how many did (members gone count 0). */
    private CompletableFuture<Integer> confirmApplied(CommandId id, List<Address> members) {
        RequestOptions options = new RequestOptions(ResponseMode.GET_FIRST, phaseTimeoutMillis());
        List<CompletableFuture<Integer>> answers = new ArrayList<>(members.size());
        for (Address member : members) {
            try {
                CompletableFuture<Object> answer = dispatcher.sendMessageWithFuture(
                        new BytesMessage(member, CommandCodec.encodeAppliedQuery(id)), options);
                answers.add(answer.orTimeout(phaseTimeoutMillis(), TimeUnit.MILLISECONDS).handle((applied, failure) -> {
                    Throwable cause = failure == null ? null : unwrap(failure);
                    if (cause == null) {
                        return Boolean.TRUE.equals(applied) ? 1 : 0;
                    }
                    if (cause instanceof SuspectedException || cause instanceof UnreachableException) {
                        return 0;
                    }
                    throw new CompletionException(cause);
                }));
            } catch (Exception e) {
                answers.add(CompletableFuture.failedFuture(e));
            }
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
                .thenApply(done -> answers.stream().mapToInt(CompletableFuture::join).sum());
    }

    private long phaseTimeoutMillis() {
        return Math.max(1, config.timeouts().reply().toMillis() / 2);
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private ReplicationException outcomeUnknown(Command command, Throwable cause) {
        Throwable root = unwrap(cause);
        if (root instanceof ReplicationException replication) {
            return replication;
        }
        return new ReplicationException(ReplicationException.Code.TIMEOUT_OUTCOME_UNKNOWN,
                command.id() + " not confirmed within " + config.timeouts().reply() + "; retry idempotently", root);
    }

    private static void complete(CompletableFuture<Acknowledgement> result, Acknowledgement ack, Executor completer) {
        try {
            completer.execute(() -> result.complete(ack));
        } catch (RejectedExecutionException e) {
            result.complete(ack);
        }
    }

    private static void completeExceptionally(CompletableFuture<Acknowledgement> result, ReplicationException error,
                                              Executor completer) {
        try {
            completer.execute(() -> result.completeExceptionally(error));
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(error);
        }
    }

    /** Called on the applier thread when this replica's Redis failed: leave so the others carry on. */
    private void failed(RuntimeException cause) {
        failure = String.valueOf(cause.getMessage());
        status = Status.FAILED;
        watermarks.failAll(cause);
        try {
            control.execute(() -> {
                synchronized (this) {
                    closeChannel();
                }
            });
        } catch (RejectedExecutionException e) {
            log.debug("replica {} already closing", config.replicaId());
        }
    }

    private void closeChannel() {
        if (dispatcher != null) {
            dispatcher.stop();
        }
        if (channel != null) {
            channel.close();
        }
    }

    /**
     * After a merge, the members outside the reference subgroup reload the state from its coordinator.
     * The reference subgroup is the largest one; among equally large ones, the one whose coordinator
     * sorts first (JGroups address order), so that every member reaches the same decision.
     */
    static View referenceSubgroup(MergeView merge) {
        return merge.getSubgroups().stream()
                .min(Comparator.comparingInt((View subgroup) -> -subgroup.size())
                        .thenComparing(subgroup -> subgroup.getCoord(), Comparator.naturalOrder()))
                .orElseThrow();
    }

    private void reloadAfterMerge(MergeView merge) {
        View reference = referenceSubgroup(merge);
        Address self = channel.getAddress();
        if (reference.containsMember(self)) {
            return;
        }
        Address provider = reference.getCoord();
        log.warn("replica {} was outside the reference subgroup {} of merge {}: reloading state from {}",
                config.replicaId(), reference, merge.getViewId(), provider);
        try {
            channel.getState(provider, config.timeouts().stateTransfer().toMillis());
        } catch (Exception e) {
            log.error("state reload after merge failed; replica leaves the cluster", e);
            failed(new ReplicationException(ReplicationException.Code.STATE_TRANSFER_FAILED,
                    "reload after merge failed", e));
        }
    }

    private static ExecutorService singleThread(String name) {
        return Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * After members left the view: sends again what this replica holds of their last commands, so
     * that every survivor applies the commands any survivor received (JGroups gives no virtual
     * synchrony without FLUSH: a departing member's last multicasts may reach only some members).
     * Survivors apply only what they lack; see {@link Applier#redeliver}.
     */
    private void redeliverFrom(List<String> departed) {
        for (String origin : departed) {
            List<byte[]> commands = recent.of(origin);
            if (commands.isEmpty()) {
                continue;
            }
            try {
                dispatcher.castMessage(null, new BytesMessage(null, CommandCodec.encodeRedelivery(commands)),
                        new RequestOptions(ResponseMode.GET_NONE, config.timeouts().reply().toMillis()));
                log.info("replica {} redelivered the last {} command(s) of departed replica {}", config.replicaId(),
                        commands.size(), origin);
            } catch (Exception e) {
                log.warn("replica {} could not redeliver the commands of departed replica {}: {}", config.replicaId(),
                        origin, e.toString());
            }
        }
    }

    /** Logical names (replica ids) of the members of {@code before} that are not in {@code after}. */
    static List<String> departed(View before, View after) {
        if (before == null) {
            return List.of();
        }
        List<String> gone = new ArrayList<>();
        for (Address member : before.getMembers()) {
            if (!after.containsMember(member)) {
                String name = NameCache.get(member);
                gone.add(name != null ? name : member.toString());
            }
        }
        return gone;
    }

    /** Decodes delivered messages: commands to the applier, redeliveries too, applied-queries answered; never blocks. */
    private final class CommandHandler implements RequestHandler {
        @Override
        public Object handle(Message message) {
            accept(message.getArray(), null);
            return null;
        }

        @Override
        public void handle(Message message, Response response) {
            accept(message.getArray(), response);
        }

        private void accept(byte[] payload, Response response) {
            if (CommandCodec.isAppliedQuery(payload)) {
                if (response == null) {
                    return; // an applied-query always expects an answer; nothing to do without one
                }
                watermarks.whenApplied(CommandCodec.decodeAppliedQuery(payload))
                        .orTimeout(phaseTimeoutMillis(), TimeUnit.MILLISECONDS)
                        .whenComplete((applied, failure) -> response.send(failure == null, false));
            } else if (CommandCodec.isRedelivery(payload)) {
                applier.redeliver(CommandCodec.decodeRedelivery(payload));
            } else {
                Command command = CommandCodec.decode(payload);
                recent.add(command.id(), payload);
                applier.deliver(command, response);
            }
        }
    }

    /** Views and state transfer. */
    private final class MembershipReceiver implements Receiver {
        @Override
        public void viewAccepted(View newView) {
            View previous = view;
            view = newView;
            log.info("replica {} view {}", config.replicaId(), newView);
            if (status != Status.CONNECTED) {
                return;
            }
            try {
                if (newView instanceof MergeView merge) {
                    control.execute(() -> reloadAfterMerge(merge));
                } else {
                    List<String> gone = departed(previous, newView);
                    if (!gone.isEmpty()) {
                        control.execute(() -> redeliverFrom(gone));
                    }
                }
            } catch (RejectedExecutionException e) {
                log.debug("replica {} closing, view change ignored", config.replicaId());
            }
        }

        @Override
        public void getState(OutputStream output) throws Exception {
            applier.whilePaused(config.timeouts().stateTransfer(), () -> stateMachine.writeSnapshot(output));
        }

        @Override
        public void setState(InputStream input) throws Exception {
            applier.whilePaused(config.timeouts().stateTransfer(), () -> {
                stateMachine.restore(input);
                Map<String, Long> applied = stateMachine.appliedSeqs();
                watermarks.advanceAll(applied);
                lastSeq.accumulateAndGet(applied.getOrDefault(config.replicaId(), 0L), Math::max);
            });
        }
    }
}
