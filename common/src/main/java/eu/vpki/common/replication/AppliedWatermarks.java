package eu.vpki.common.replication;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The highest sequence number this replica has applied per origin, with futures waiting for a
 * given {@link CommandId}. Advanced by the applier thread; read by any thread.
 */
final class AppliedWatermarks {

    private final Map<String, Long> applied = new ConcurrentHashMap<>();
    private final Map<String, NavigableMap<Long, List<CompletableFuture<Void>>>> waiting = new ConcurrentHashMap<>();

    /** Whether {@code id} (or a later command of its origin) has been applied here. */
    boolean hasApplied(CommandId id) {
        return applied.getOrDefault(id.origin(), 0L) >= id.seq();
    }

    long appliedSeq(String origin) {
        return applied.getOrDefault(origin, 0L);
    }

    /** Completes when {@code id} has been applied here. */
    CompletableFuture<Void> whenApplied(CommandId id) {
        if (hasApplied(id)) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> future = new CompletableFuture<>();
        synchronized (this) {
            if (hasApplied(id)) {
                return CompletableFuture.completedFuture(null);
            }
            waiting.computeIfAbsent(id.origin(), origin -> new ConcurrentSkipListMap<>())
                    .computeIfAbsent(id.seq(), seq -> new ArrayList<>())
                    .add(future);
        }
        return future;
    }

    /** Records that {@code origin}'s commands up to {@code seq} are applied and releases their waiters. */
    void advance(String origin, long seq) {
        List<CompletableFuture<Void>> released = new ArrayList<>();
        synchronized (this) {
            if (applied.getOrDefault(origin, 0L) >= seq) {
                return;
            }
            applied.put(origin, seq);
            NavigableMap<Long, List<CompletableFuture<Void>>> pending = waiting.get(origin);
            if (pending != null) {
                NavigableMap<Long, List<CompletableFuture<Void>>> done = pending.headMap(seq, true);
                done.values().forEach(released::addAll);
                done.clear();
            }
        }
        released.forEach(future -> future.complete(null));
    }

    /** Every origin's highest applied sequence number, as of now. */
    Map<String, Long> snapshot() {
        return Map.copyOf(applied);
    }

    /** Raises every origin to at least the given table (after a state transfer). */
    void advanceAll(Map<String, Long> table) {
        table.forEach(this::advance);
    }

    /** Fails every waiter, e.g. when the replica closes. */
    void failAll(RuntimeException cause) {
        List<CompletableFuture<Void>> released = new ArrayList<>();
        synchronized (this) {
            waiting.values().forEach(pending -> {
                pending.values().forEach(released::addAll);
                pending.clear();
            });
        }
        released.forEach(future -> future.completeExceptionally(cause));
    }
}
