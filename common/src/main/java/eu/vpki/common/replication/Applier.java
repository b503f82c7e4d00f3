package eu.vpki.common.replication;

import org.jgroups.blocks.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The one thread per replica that applies commands to Redis in delivery order. JGroups threads only
 * enqueue (they never wait on Redis or on other members); a SYNC request is answered from this thread
 * once its command is applied. State snapshots and restores run while this thread is parked at a
 * well-defined point of the delivery stream ({@link #whilePaused}).
 *
 * <p>With a grouping time (ASYNC propagation only), commands of other origins that find the queue
 * otherwise empty wait up to that long for more, so that one Redis round trip applies several: on
 * this path a round trip costs the Redis server more than the commands it carries. A command of this
 * replica's own, whose client is waiting for it, ends the wait at once, as does a pause or a
 * redelivery. Nobody waits for another origin's command in ASYNC, so holding it only adds to this
 * replica's lag, by at most the grouping time.
 */
final class Applier {

    private static final Logger log = LoggerFactory.getLogger(Applier.class);
    private static final int MAX_BATCH = 256;

    /** Something for the applier: a delivered command, or a request to pause. */
    private sealed interface Item {
    }

    private record Delivered(Command command, Response response) implements Item {
    }

    private record Pause(CompletableFuture<Void> paused, CountDownLatch resume) implements Item {
    }

    /** One origin's commands sent again by a survivor after that origin left, ascending by seq. */
    private record Redelivered(List<Command> commands) implements Item {
    }

    /** Work to run while the applier is paused. */
    @FunctionalInterface
    interface PausedAction {
        void run() throws Exception;
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
    private volatile boolean started;
    private volatile RuntimeException failure;

    /**
     * @param replicaId the origin of this replica's own commands
     * @param grouping  how long other origins' commands may wait to be applied together; zero applies at once
     */
    Applier(String replicaId, Duration grouping, RedisStateMachine stateMachine, AppliedWatermarks watermarks,
            ReplicationMetrics metrics, Clock clock, Consumer<RuntimeException> onFailure) {
        this.localOrigin = replicaId;
        this.groupingNanos = grouping.toNanos();
        this.stateMachine = stateMachine;
        this.watermarks = watermarks;
        this.metrics = metrics;
        this.clock = clock;
        this.onFailure = onFailure;
        this.thread = new Thread(this::run, "vpki-apply-" + replicaId);
        this.thread.setDaemon(true);
    }

    /** Called from JGroups delivery threads, in delivery order; never blocks. */
    void deliver(Command command, Response response) {
        RuntimeException failed = failure;
        if (failed != null) {
            answer(new Delivered(command, response), failed);
            return;
        }
        queue.add(new Delivered(command, response));
    }

    /**
     * Called from JGroups delivery threads with a departed origin's last commands as another
     * survivor holds them; those this replica has not applied are applied in order, after everything
     * delivered before. Never blocks.
     */
    void redeliver(List<Command> commands) {
        if (!commands.isEmpty() && failure == null) {
            queue.add(new Redelivered(List.copyOf(commands)));
        }
    }

    int queued() {
        return queue.size();
    }

    void start() {
        started = true;
        thread.start();
    }

    void stop() {
        thread.interrupt();
    }

    /**
     * Runs {@code action} after every command delivered before this call has been applied, with no
     * command applied while it runs. Before {@link #start()} nothing is applied anyway, so it runs at once.
     */
    void whilePaused(Duration timeout, PausedAction action) throws Exception {
        if (!started) {
            action.run();
            return;
        }
        Pause pause = new Pause(new CompletableFuture<>(), new CountDownLatch(1));
        queue.add(pause);
        try {
            pause.paused().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            action.run();
        } catch (ExecutionException e) {
            throw new ReplicationException(ReplicationException.Code.APPLY_FAILED, "applier failed", e.getCause());
        } catch (TimeoutException e) {
            throw new ReplicationException(ReplicationException.Code.TIMEOUT_OUTCOME_UNKNOWN,
                    "applier did not reach the pause point within " + timeout, e);
        } finally {
            pause.resume().countDown();
        }
    }

    private void run() {
        List<Item> items = new ArrayList<>(MAX_BATCH);
        List<Delivered> batch = new ArrayList<>(MAX_BATCH);
        int unanswered = 0; // index in items of the first item not yet answered
        try {
            while (!Thread.currentThread().isInterrupted()) {
                items.add(queue.take());
                queue.drainTo(items, MAX_BATCH - 1);
                if (groupingNanos > 0) {
                    group(items);
                }
                for (int i = 0; i < items.size(); i++) {
                    if (items.get(i) instanceof Delivered delivered) {
                        batch.add(delivered);
                    } else if (items.get(i) instanceof Pause pause) {
                        applyBatch(batch);
                        unanswered = i;
                        pause.paused().complete(null);
                        unanswered = i + 1;
                        pause.resume().await();
                    } else if (items.get(i) instanceof Redelivered redelivered) {
                        applyBatch(batch);
                        applyRedelivered(redelivered.commands());
                    }
                }
                applyBatch(batch);
                items.clear();
                unanswered = 0;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("applying to Redis failed; this replica stops applying and leaves the cluster", e);
            RuntimeException cause = new ReplicationException(ReplicationException.Code.APPLY_FAILED,
                    "replica could not apply to its Redis: " + e.getMessage(), e);
            failure = cause;
            List<Item> rest = new ArrayList<>(items.subList(unanswered, items.size()));
            queue.drainTo(rest);
            rest.forEach(item -> release(item, cause));
            onFailure.accept(cause);
        }
    }

    /**
     * While {@code items} holds only other origins' commands, waits up to the grouping time for more,
     * and returns as soon as one of this replica's own commands, a pause or a redelivery arrives, or
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
        List<RedisStateMachine.ApplyOutcome> outcomes = stateMachine.apply(commands);
        metrics.batchApplied(commands.size());
        long now = clock.millis();
        for (int i = 0; i < batch.size(); i++) {
            Delivered delivered = batch.get(i);
            RedisStateMachine.ApplyOutcome outcome = outcomes.get(i);
            if (outcome == RedisStateMachine.ApplyOutcome.REJECTED) {
                log.warn("command {} rejected: one of its keys holds another kind of value", delivered.command().id());
            }
            watermarks.advance(delivered.command().id().origin(), delivered.command().id().seq());
            metrics.applied(delivered.command(), outcome, now);
            answer(delivered, null);
        }
        batch.clear();
    }

    /**
     * Applies the commands this replica lacks. They must continue its applied sequence of their
     * origin without a gap; a gap (this replica lags the sender by more than it keeps) is logged and
     * nothing is applied, since applying past it would hide the missing commands for good.
     */
    private void applyRedelivered(List<Command> commands) {
        String origin = commands.get(0).id().origin();
        long applied = watermarks.appliedSeq(origin);
        List<Delivered> missing = new ArrayList<>();
        long next = applied + 1;
        for (Command command : commands) {
            if (!command.id().origin().equals(origin)) {
                log.error("redelivery mixes origins {} and {}; ignored", origin, command.id().origin());
                return;
            }
            long seq = command.id().seq();
            if (seq < next) {
                continue;
            }
            if (seq != next) {
                log.error("redelivered commands of {} start at {} but this replica applied only up to {}: "
                        + "the commands between are lost here; reload this replica's state", origin, seq, next - 1);
                return;
            }
            missing.add(new Delivered(command, null));
            next++;
        }
        if (missing.isEmpty()) {
            return;
        }
        log.warn("applying {} command(s) of departed replica {} ({}..{}) that only other survivors had received",
                missing.size(), origin, applied + 1, next - 1);
        applyBatch(missing);
    }

    private static void answer(Delivered delivered, RuntimeException failure) {
        if (delivered.response() != null) {
            try {
                delivered.response().send(failure, failure != null);
            } catch (RuntimeException e) {
                // the channel closed under us: the requester sees this replica leave instead
                log.debug("cannot answer for {}: {}", delivered.command().id(), e.toString());
            }
        }
    }

    private static void release(Item item, RuntimeException failure) {
        if (item instanceof Delivered delivered) {
            answer(delivered, failure);
        } else if (item instanceof Pause pause) {
            pause.paused().completeExceptionally(failure);
        }
    }
}
