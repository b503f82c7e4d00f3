package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import org.jgroups.blocks.Response;
import redis.clients.jedis.exceptions.JedisDataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The one thread per replica that applies commands to Redis, each origin's in sequence order with no
 * gap. JGroups threads only enqueue (they never wait on Redis or on other members); a SYNC request is
 * answered from this thread once its command is applied. State snapshots and restores run while this
 * thread is parked at a well-defined point of the delivery stream ({@link #whilePaused}).
 *
 * <p><b>Hold-back.</b> A command whose origin's previous command is not applied here is held, not
 * applied past: that would hide the missing ones for good. Its SYNC request is answered at once with
 * "not applied" (the origin does not wait for a member that is catching up), and the gap is published
 * ({@link #gaps()}) for the anti-entropy, which fetches the missing commands from a peer's log and
 * hands them in with {@link #recover}; held commands follow as soon as the gap closes. At most
 * {@link #DEFAULT_MAX_HELD} commands per origin are held: later ones are dropped ("not applied") and, like the
 * missing ones, fetched from a peer's log once the applier gets there ({@link #fetchableFrom}), so a member that
 * catches up after a long outage while the group keeps writing holds a bounded amount of memory. Commands from
 * JGroups and from peers' logs meet here, so duplicates are expected and skipped.
 *
 * <p><b>Replacing the state.</b> While a state transfer replaces this replica's state ({@link #replaceState}), every
 * command delivered or fetched is dropped (a SYNC request is answered "not applied"), nothing is held and nothing is
 * remembered as received: the transfer's pages are read while the provider keeps applying, and once they are installed
 * the commands after the provider's applied table are fetched from the peers' logs ({@link SnapshotPage}). So a transfer
 * of any length costs no memory here, however fast the group writes meanwhile.
 *
 * <p><b>Grouping.</b> With a grouping time (ASYNC propagation only), commands of other origins that
 * find the queue otherwise empty wait up to that long for more, so that one Redis round trip applies
 * several: on this path a round trip costs the Redis server more than the commands it carries. A
 * command of this replica's own, whose client is waiting for it, ends the wait at once, as does a
 * pause or a recovery. Nobody waits for another origin's command in ASYNC, so holding it only adds
 * to this replica's lag, by at most the grouping time.
 */
final class Applier {

    private static final Logger log = LoggerFactory.getLogger(Applier.class);
    private static final int MAX_BATCH = 256;
    /** Commands held back per origin at most; later ones are dropped and fetched again (about 30 MB of 1.3 KB commands). */
    static final int DEFAULT_MAX_HELD = 20_000;

    /** Something for the applier: a delivered command, commands from a peer's log, or a request to pause. */
    private sealed interface Item {
    }

    private record Delivered(Command command, Response response, long deliveredNanos) implements Item {
    }

    /** Commands fetched from a peer's log, of any origins, each origin's ascending. */
    private record Recovered(List<Command> commands) implements Item {
    }

    /** Parks the applier; with {@code reload}, it re-reads the applied table from Redis on resuming. */
    private record Pause(CompletableFuture<Void> paused, CountDownLatch resume, boolean reload) implements Item {
    }

    /** Work to run while the applier is paused. */
    @FunctionalInterface
    interface PausedAction {
        void run() throws Exception;
    }

    /** An origin's commands {@code from..heldFrom-1} are missing here, and {@code held} later ones wait for them. */
    record Gap(String origin, long from, long heldFrom, int held, long oldestNanos) {
    }

    private final BlockingQueue<Item> queue = new LinkedBlockingQueue<>();
    private final RedisStateMachine stateMachine;
    private final AppliedWatermarks watermarks;
    private final ReplicationMetrics metrics;
    private final Clock clock;
    private final Consumer<RuntimeException> onFailure;
    private final String localOrigin;
    private final long groupingNanos;
    private final Thread thread;
    /** Applier thread only: per origin, the next sequence number to apply (everything below is applied or batched). */
    private final Map<String, Long> next = new HashMap<>();
    /** Applier thread only: per origin, commands waiting for an earlier one. */
    private final Map<String, TreeMap<Long, Delivered>> held = new HashMap<>();
    /** Published by the applier thread after each round: the current gaps. */
    private volatile Map<String, Gap> gaps = Map.of();
    /** Per origin, the highest sequence number delivered here by JGroups (written by JGroups threads). */
    private final Map<String, Long> received = new ConcurrentHashMap<>();
    private final AtomicLong delivered = new AtomicLong();
    private volatile long processed;
    private volatile long busySinceNanos;
    private volatile boolean started;
    private volatile RuntimeException failure;
    /** While a state transfer replaces the state: deliveries and recoveries are dropped ({@link #replaceState}). */
    private volatile boolean discarding;
    /** Why its Redis refuses to apply (out of memory), or null ({@link #applyWhenRedisHasRoom}). */
    private volatile String storageRefused;
    private final AtomicLong discarded = new AtomicLong();
    private final int maxHeld;
    /** Per origin, the lowest and highest sequence numbers dropped because the hold-back was full, until both are applied. */
    private final Map<String, long[]> dropped = new ConcurrentHashMap<>();

    /**
     * @param localOrigin the origin of this replica's own commands (its current incarnation)
     * @param grouping    how long other origins' commands may wait to be applied together; zero applies at once
     */
    Applier(String localOrigin, Duration grouping, RedisStateMachine stateMachine, AppliedWatermarks watermarks,
            ReplicationMetrics metrics, Clock clock, Consumer<RuntimeException> onFailure) {
        this(localOrigin, grouping, DEFAULT_MAX_HELD, stateMachine, watermarks, metrics, clock, onFailure);
    }

    /** @param maxHeld commands held back per origin at most; later ones are dropped and fetched again */
    Applier(String localOrigin, Duration grouping, int maxHeld, RedisStateMachine stateMachine, AppliedWatermarks watermarks,
            ReplicationMetrics metrics, Clock clock, Consumer<RuntimeException> onFailure) {
        if (maxHeld < 1) {
            throw new IllegalArgumentException("maxHeld must be at least 1");
        }
        this.maxHeld = maxHeld;
        this.localOrigin = localOrigin;
        this.groupingNanos = grouping.toNanos();
        this.stateMachine = stateMachine;
        this.watermarks = watermarks;
        this.metrics = metrics;
        this.clock = clock;
        this.onFailure = onFailure;
        this.thread = new Thread(this::run, "vpki-apply-" + localOrigin);
        this.thread.setDaemon(true);
    }

    /** Called from JGroups delivery threads, in delivery order; never blocks. */
    void deliver(Command command, Response response) {
        RuntimeException failed = failure;
        if (failed != null) {
            answer(response, command.id(), failed);
            return;
        }
        if (discarding) {
            discarded.incrementAndGet();
            answer(response, command.id(), null, false);
            return;
        }
        received.merge(command.id().origin(), command.id().seq(), Math::max);
        delivered.incrementAndGet();
        queue.add(new Delivered(command, response, System.nanoTime()));
    }

    /** Commands a peer's log holds and this replica may lack; applied in order, the rest skipped. Never blocks. */
    void recover(List<Command> commands) {
        if (!commands.isEmpty() && failure == null && !discarding) {
            queue.add(new Recovered(List.copyOf(commands)));
        }
    }

    int queued() {
        return queue.size();
    }

    /** The highest sequence number of {@code origin} that JGroups delivered here (not necessarily applied). */
    long received(String origin) {
        return received.getOrDefault(origin, 0L);
    }

    /**
     * The first command of {@code origin} that must be fetched from a peer's log whatever was delivered or fetched
     * before: one dropped because the hold-back was full ({@link #DEFAULT_MAX_HELD}); {@link Long#MAX_VALUE} if none.
     */
    long fetchableFrom(String origin) {
        long[] range = dropped.get(origin);
        return range == null ? Long.MAX_VALUE : range[0];
    }

    /** The gaps as of the applier's last round: origin to what is missing and what waits for it. */
    Map<String, Gap> gaps() {
        return gaps;
    }

    /** Commands JGroups delivered here so far; with {@link #processed()}, tells whether all of them were handled. */
    long deliveredCount() {
        return delivered.get();
    }

    /** Delivered commands applied, skipped or held so far (counted once their round's batch is applied). */
    long processed() {
        return processed;
    }

    /**
     * Since when the oldest command delivered here and not yet applied has waited (the queue's head,
     * the batch being applied, or the oldest held one); 0 when none waits.
     */
    long oldestWaitingNanos() {
        long oldest = busySinceNanos;
        Item head = queue.peek();
        if (head instanceof Delivered delivered && (oldest == 0 || delivered.deliveredNanos() < oldest)) {
            oldest = delivered.deliveredNanos();
        }
        for (Gap gap : gaps.values()) {
            if (oldest == 0 || gap.oldestNanos() < oldest) {
                oldest = gap.oldestNanos();
            }
        }
        return oldest;
    }

    void start() {
        started = true;
        thread.start();
    }

    void stop() {
        thread.interrupt();
    }

    /**
     * Runs {@code action} after every command delivered before this call has been applied (or held),
     * with no command applied while it runs. Before {@link #start()} nothing is applied anyway, so it
     * runs at once. With {@code reload} (the action replaced the state), the applier then re-reads what
     * is applied from Redis and applies the held commands that now follow.
     */
    void whilePaused(Duration timeout, boolean reload, PausedAction action) throws Exception {
        if (!started) {
            action.run();
            return;
        }
        Pause pause = new Pause(new CompletableFuture<>(), new CountDownLatch(1), reload);
        queue.add(pause);
        try {
            pause.paused().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            action.run();
        } catch (ExecutionException e) {
            throw new ReplicationException(ErrorCode.APPLY_FAILED, "applier failed", e.getCause());
        } catch (TimeoutException e) {
            throw new ReplicationException(ErrorCode.TIMEOUT_OUTCOME_UNKNOWN,
                    "applier did not reach the pause point within " + timeout, e);
        } finally {
            pause.resume().countDown();
        }
    }

    /**
     * Begins replacing the state: from now on every command delivered or fetched is dropped (SYNC requests are answered
     * "not applied"); once the applier has handed on what it was doing, its hold-back, its sequence expectations and what
     * it remembers as received are cleared and {@code wipe} runs while it is parked. Until {@link #stateReplaced} nothing
     * is applied.
     */
    void replaceState(Duration timeout, PausedAction wipe) throws Exception {
        discarding = true;
        whilePaused(timeout, false, wipe);
    }

    /**
     * Ends replacing the state: {@code complete} runs while the applier is parked, then it applies again from what Redis
     * now holds (its applied table), re-reading it as after a restore.
     */
    void stateReplaced(Duration timeout, PausedAction complete) throws Exception {
        whilePaused(timeout, true, () -> {
            complete.run();
            discarding = false;
        });
    }

    /** Whether a state transfer is replacing the state ({@link #replaceState}): commands are dropped. */
    boolean replacingState() {
        return discarding;
    }

    /** Commands dropped while a state transfer replaced the state. */
    long discarded() {
        return discarded.get();
    }

    private void run() {
        List<Item> items = new ArrayList<>(MAX_BATCH);
        List<Delivered> batch = new ArrayList<>(MAX_BATCH);
        try {
            while (!Thread.currentThread().isInterrupted()) {
                items.add(queue.take());
                queue.drainTo(items, MAX_BATCH - 1);
                if (groupingNanos > 0) {
                    group(items);
                }
                busySinceNanos = oldestOf(items);
                int routed = 0;
                for (Item item : items) {
                    if (discarding && item instanceof Delivered delivered) {
                        discarded.incrementAndGet();
                        answer(delivered.response(), delivered.command().id(), null, false);
                        routed++;
                    } else if (discarding && item instanceof Recovered) {
                        continue;
                    } else if (item instanceof Delivered delivered) {
                        route(delivered, batch);
                        routed++;
                    } else if (item instanceof Recovered recovered) {
                        long now = System.nanoTime();
                        recovered.commands().forEach(command -> route(new Delivered(command, null, now), batch));
                    } else if (item instanceof Pause pause) {
                        applyBatch(batch);
                        pause.paused().complete(null);
                        pause.resume().await();
                        if (pause.reload()) {
                            reload(batch);
                        } else if (discarding) {
                            forgetDeliveries();
                        }
                    }
                    if (batch.size() >= MAX_BATCH) {
                        applyBatch(batch);
                    }
                }
                applyBatch(batch);
                processed += routed;
                items.clear();
                busySinceNanos = 0;
                publishGaps();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("applying to Redis failed; this replica stops applying and leaves the cluster", e);
            RuntimeException cause = new ReplicationException(ErrorCode.APPLY_FAILED,
                    "replica could not apply to its Redis: " + e.getMessage(), e);
            failure = cause;
            batch.forEach(delivered -> answer(delivered.response(), delivered.command().id(), cause));
            List<Item> rest = new ArrayList<>(items);
            queue.drainTo(rest);
            rest.forEach(item -> release(item, cause));
            held.values().forEach(waiting -> waiting.values()
                    .forEach(delivered -> answer(delivered.response(), delivered.command().id(), cause)));
            onFailure.accept(cause);
        }
    }

    private static long oldestOf(List<Item> items) {
        for (Item item : items) {
            if (item instanceof Delivered delivered) {
                return delivered.deliveredNanos();
            }
        }
        return 0;
    }

    /** Adds {@code delivered} to the batch if it is the origin's next command (then also the held ones it frees), else holds it. */
    private void route(Delivered delivered, List<Delivered> batch) {
        CommandId id = delivered.command().id();
        String origin = id.origin();
        long expected = next.computeIfAbsent(origin, o -> watermarks.appliedSeq(o) + 1);
        if (id.seq() < expected) {
            batch.add(delivered); // a duplicate (JGroups and a peer's log, or a redelivery): skipped by the script, answered after
            return;
        }
        if (id.seq() > expected) {
            hold(delivered);
            return;
        }
        batch.add(delivered);
        long following = expected + 1;
        TreeMap<Long, Delivered> waiting = held.get(origin);
        while (waiting != null) {
            Delivered freed = waiting.remove(following);
            if (freed == null) {
                break;
            }
            batch.add(freed);
            following++;
        }
        if (waiting != null) {
            waiting.headMap(following).clear();
            if (waiting.isEmpty()) {
                held.remove(origin);
            }
        }
        next.put(origin, following);
        long[] range = dropped.get(origin);
        if (range != null && range[1] < following) {
            dropped.remove(origin, range);
        }
    }

    private void hold(Delivered delivered) {
        CommandId id = delivered.command().id();
        TreeMap<Long, Delivered> waiting = held.computeIfAbsent(id.origin(), o -> new TreeMap<>());
        Delivered earlier = waiting.get(id.seq());
        // the origin must not wait for a command held here: "not applied yet" at once, applied when the gap closes
        answer(delivered.response(), id, null, false);
        if (earlier == null && waiting.size() >= maxHeld) {
            // full: keep the lowest, which close the gap first; the rest is fetched again once the applier gets there
            Map.Entry<Long, Delivered> highest = waiting.lastEntry();
            long out = id.seq();
            if (highest.getKey() > id.seq()) {
                waiting.pollLastEntry();
                waiting.put(id.seq(), new Delivered(delivered.command(), null, delivered.deliveredNanos()));
                out = highest.getKey();
            }
            long seq = out;
            long[] range = this.dropped.compute(id.origin(), (o, r) -> r == null
                    ? new long[]{seq, seq}
                    : new long[]{Math.min(r[0], seq), Math.max(r[1], seq)});
            if (range[0] == range[1]) {
                log.warn("holding {} commands of {} already (a long gap): dropping {} and later ones, fetched again later",
                        maxHeld, id.origin(), seq);
            }
            return;
        }
        if (earlier == null) {
            if (waiting.isEmpty()) {
                log.warn("commands of {} from {} are missing here; holding {} until they arrive", id.origin(),
                        next.get(id.origin()), id);
            }
            waiting.put(id.seq(), new Delivered(delivered.command(), null, delivered.deliveredNanos()));
        }
    }

    /** A state transfer begins: nothing held, nothing expected, nothing received (the transfer replaces it all). */
    private void forgetDeliveries() {
        held.values().forEach(waiting -> waiting.values()
                .forEach(delivered -> answer(delivered.response(), delivered.command().id(), null, false)));
        held.clear();
        next.clear();
        received.clear();
        dropped.clear();
        gaps = Map.of();
    }

    /** After a state restore: what Redis now holds decides what comes next; held commands that now follow are applied. */
    private void reload(List<Delivered> batch) {
        Map<String, Long> applied = stateMachine.appliedSeqs();
        watermarks.advanceAll(applied);
        next.clear();
        dropped.clear();
        received.keySet().retainAll(applied.keySet());
        applied.forEach((origin, seq) -> received.merge(origin, seq, Math::min));
        List<Delivered> waiting = new ArrayList<>();
        held.values().forEach(perOrigin -> waiting.addAll(perOrigin.values()));
        held.clear();
        waiting.forEach(delivered -> route(delivered, batch));
    }

    private void publishGaps() {
        if (held.isEmpty()) {
            if (!gaps.isEmpty()) {
                gaps = Map.of();
                log.info("no command is missing here any more");
            }
            return;
        }
        Map<String, Gap> current = new HashMap<>();
        held.forEach((origin, waiting) -> {
            long oldest = waiting.values().stream().mapToLong(Delivered::deliveredNanos).min().orElse(System.nanoTime());
            current.put(origin, new Gap(origin, next.get(origin), waiting.firstKey(), waiting.size(), oldest));
        });
        gaps = Map.copyOf(current);
    }

    /**
     * While {@code items} holds only other origins' commands, waits up to the grouping time for more,
     * and returns as soon as one of this replica's own commands, a pause or a recovery arrives, or
     * the batch is full.
     */
    private void group(List<Item> items) throws InterruptedException {
        if (!onlyOthersCommands(items, 0)) {
            return;
        }
        long deadline = System.nanoTime() + groupingNanos;
        while (items.size() < MAX_BATCH) {
            long left = deadline - System.nanoTime();
            Item next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
            if (next == null) {
                return;
            }
            int from = items.size();
            items.add(next);
            queue.drainTo(items, MAX_BATCH - items.size());
            if (!onlyOthersCommands(items, from)) {
                return;
            }
        }
    }

    private boolean onlyOthersCommands(List<Item> items, int from) {
        for (int i = from; i < items.size(); i++) {
            if (!(items.get(i) instanceof Delivered delivered) || delivered.command().id().origin().equals(localOrigin)) {
                return false;
            }
        }
        return true;
    }

    private void applyBatch(List<Delivered> batch) {
        if (batch.isEmpty()) {
            return;
        }
        List<Command> commands = new ArrayList<>(batch.size());
        batch.forEach(delivered -> commands.add(delivered.command()));
        List<RedisStateMachine.ApplyOutcome> outcomes = applyWhenRedisHasRoom(commands);
        metrics.batchApplied(commands.size());
        long now = clock.millis();
        for (int i = 0; i < batch.size(); i++) {
            Delivered delivered = batch.get(i);
            CommandId id = delivered.command().id();
            RedisStateMachine.ApplyOutcome outcome = outcomes.get(i);
            if (outcome == RedisStateMachine.ApplyOutcome.GAP) {
                // what this thread believes applied is not what Redis holds: Redis lost writes (restarted
                // without them); leave, and rejoin from what Redis really holds
                throw new IllegalStateException("Redis holds fewer commands of " + id.origin() + " than applied here ("
                        + id + " does not follow); it lost writes");
            }
            if (outcome == RedisStateMachine.ApplyOutcome.REJECTED) {
                log.warn("command {} rejected: one of its keys holds another kind of value", id);
            }
            watermarks.advance(id.origin(), id.seq());
            metrics.applied(delivered.command(), outcome, now);
            answer(delivered.response(), id, null, true);
        }
        batch.clear();
    }

    /**
     * Applies {@code commands}; while Redis refuses for lack of memory ({@code maxmemory} reached, noeviction: "OOM command
     * not allowed"), waits and tries the same batch again (applying is idempotent; the script's first write is what Redis
     * refuses, so nothing of a refused command is written) instead of failing the replica, which would leave the group
     * and rejoin to fail again at the next command. Meanwhile {@link #storageRefused()} says why nothing is applied, and
     * the replica, lagging behind, stops serving.
     */
    private List<RedisStateMachine.ApplyOutcome> applyWhenRedisHasRoom(List<Command> commands) {
        long backoffMillis = 100;
        while (true) {
            try {
                List<RedisStateMachine.ApplyOutcome> outcomes = stateMachine.apply(commands);
                if (storageRefused != null) {
                    log.info("its Redis takes writes again: applying");
                    storageRefused = null;
                }
                return outcomes;
            } catch (JedisDataException e) {
                if (e.getMessage() == null || !e.getMessage().startsWith("OOM")) {
                    throw e;
                }
                if (storageRefused == null) {
                    log.error("its Redis refuses writes ({}): nothing is applied until memory is freed or maxmemory raised;"
                            + " this replica stays in the group and does not serve meanwhile", e.getMessage());
                }
                storageRefused = "its Redis refuses writes (" + e.getMessage() + ")";
                try {
                    Thread.sleep(backoffMillis);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while its Redis refused writes", interrupted);
                }
                backoffMillis = Math.min(2_000, backoffMillis * 2);
            }
        }
    }

    /** Why nothing is applied now: its Redis refuses writes for lack of memory; null while it takes them. */
    String storageRefused() {
        return storageRefused;
    }

    private static void answer(Response response, CommandId id, RuntimeException failure) {
        answer(response, id, failure, false);
    }

    /** Answers a SYNC request: {@code applied} (true once applied here, false while held), or the failure. */
    private static void answer(Response response, CommandId id, RuntimeException failure, boolean applied) {
        if (response != null) {
            try {
                if (failure != null) {
                    response.send(failure, true);
                } else {
                    response.send(applied, false);
                }
            } catch (RuntimeException e) {
                // the channel closed under us: the requester sees this replica leave instead
                log.debug("cannot answer for {}: {}", id, e.toString());
            }
        }
    }

    private static void release(Item item, RuntimeException failure) {
        if (item instanceof Delivered delivered) {
            answer(delivered.response(), delivered.command().id(), failure);
        } else if (item instanceof Pause pause) {
            pause.paused().completeExceptionally(failure);
        }
    }
}
