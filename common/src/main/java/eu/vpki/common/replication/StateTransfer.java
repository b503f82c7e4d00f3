package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import org.jgroups.Address;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The joiner's side of a state transfer: replaces this member's state with a peer's, page by page ({@link SnapshotPage}),
 * on a thread of its own, while the provider keeps serving and applying. It stops applying (the applier drops what it is
 * given), asks the provider for its first page and checks that the provider's table holds everything this member
 * applied, then marks the state incomplete and wipes it, asks for the next page while it installs the last one, and writes the provider's applied table of the
 * first page last; the anti-entropy then fetches what was applied after that table. Nothing waits for the whole state: a
 * page that does not come within the state-transfer timeout is asked for again (twice), then the transfer fails and the
 * state stays marked incomplete, so this member keeps out of service and starts again, from any provider, at the next
 * round; a crash of either side leaves the same mark. Progress (pages, keys, bytes, rate) shows in the reason the member
 * gives for not serving and in the log.
 */
final class StateTransfer {

    private static final Logger log = LoggerFactory.getLogger(StateTransfer.class);

    /** About how many bytes a page carries. */
    static final long PAGE_BYTES = 2L << 20;
    private static final int ATTEMPTS_PER_PAGE = 3;
    private static final long PROGRESS_LOG_NANOS = Duration.ofSeconds(10).toNanos();

    private final ReplicationConfig config;
    private final Applier applier;
    private final AppliedWatermarks watermarks;
    private final RedisStateMachine stateMachine;
    private final AntiEntropy.Peers peers;
    private final ReplicationMetrics metrics;
    private final Consumer<String> progress;
    private final LongSupplier nanos;
    private volatile Thread thread;
    private volatile boolean closed;

    /** @param progress told why this member is out of service while a transfer runs (its progress) */
    StateTransfer(ReplicationConfig config, Applier applier, AppliedWatermarks watermarks, RedisStateMachine stateMachine,
                  AntiEntropy.Peers peers,
                  ReplicationMetrics metrics, Consumer<String> progress, LongSupplier nanos) {
        this.config = config;
        this.applier = applier;
        this.watermarks = watermarks;
        this.stateMachine = stateMachine;
        this.peers = peers;
        this.metrics = metrics;
        this.progress = progress;
        this.nanos = nanos;
    }

    /** Whether a transfer runs now. */
    boolean running() {
        return thread != null;
    }

    /**
     * Starts replacing this member's state with {@code provider}'s, unless a transfer runs already; {@code ended} is told
     * on the transfer's thread whether it completed.
     */
    synchronized void start(Address provider, String providerId, Consumer<Boolean> ended) {
        if (thread != null || closed) {
            return;
        }
        Thread started = new Thread(() -> {
            boolean complete = false;
            try {
                run(provider, providerId);
                complete = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                log.warn("replica {}: the state transfer from {} was interrupted", config.replicaId(), providerId);
            } catch (Exception e) {
                log.warn("replica {}: the state transfer from {} failed: {}", config.replicaId(), providerId, e.toString());
            } finally {
                synchronized (this) {
                    thread = null;
                }
                ended.accept(complete);
            }
        }, "vpki-transfer-" + config.replicaId());
        started.setDaemon(true);
        thread = started;
        started.start();
    }

    /** Stops a running transfer (the state stays marked incomplete). */
    synchronized void close() {
        closed = true;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /**
     * The transfer itself, on the calling thread. The applier stops applying first, so that what this member applied
     * ({@code watermarks}) is final when it is compared with the provider's table; a provider whose table does not reach
     * it is refused before anything is replaced, and the applier applies again.
     */
    void run(Address provider, String providerId) throws Exception {
        Duration timeout = config.timeouts().stateTransfer();
        String why = "a state transfer from " + providerId + " is replacing this replica's state";
        progress.accept(why);
        applier.replaceState(timeout, () -> {
        });
        Map<String, Long> mine = watermarks.snapshot();
        long started = nanos.getAsLong();
        SnapshotPage.Position position = SnapshotPage.Position.START;
        byte[] encoded;
        SnapshotPage page;
        try {
            encoded = await(request(provider, position), provider, position, timeout);
            page = CommandCodec.decodeSnapshotPage(encoded);
            for (Map.Entry<String, Long> entry : mine.entrySet()) {
                if (entry.getValue() > page.applied().getOrDefault(entry.getKey(), 0L)) {
                    throw new ReplicationException(ErrorCode.STATE_TRANSFER_FAILED, providerId + " applied " + entry.getKey()
                            + " up to " + page.applied().getOrDefault(entry.getKey(), 0L) + ", this replica up to "
                            + entry.getValue() + ": its state would lose commands; not replaced");
                }
            }
        } catch (Exception e) {
            applier.stateReplaced(timeout, () -> {
            }); // nothing was replaced: apply again from what Redis holds
            throw e;
        }
        Map<String, Long> applied = page.applied();
        stateMachine.beginReplacing(why + " and did not finish");
        long lastLog = started;
        long pages = 0;
        long entries = 0;
        long bytes = 0;
        while (true) {
            CompletableFuture<byte[]> next = null;
            if (!page.last()) {
                position = page.next();
                next = request(provider, position);
            }
            stateMachine.installPage(page);
            pages++;
            entries += page.entries().size();
            bytes += encoded.length;
            metrics.transferPage(page.entries().size(), encoded.length);
            long now = nanos.getAsLong();
            double seconds = Math.max(1e-9, (now - started) / 1e9);
            progress.accept(String.format(Locale.ROOT, "%s: %,d keys in %,d pages (%.1f MB) so far, %.0f keys/s", why, entries,
                    pages, bytes / 1e6, entries / seconds));
            if (now - lastLog >= PROGRESS_LOG_NANOS) {
                lastLog = now;
                log.info("replica {}: state transfer from {}: {} entries in {} pages ({} bytes) in {} s", config.replicaId(),
                        providerId, entries, pages, bytes, (long) seconds);
            }
            if (next == null) {
                break;
            }
            if (Thread.currentThread().isInterrupted() || closed) {
                throw new InterruptedException("closed");
            }
            encoded = await(next, provider, position, timeout);
            page = CommandCodec.decodeSnapshotPage(encoded);
        }
        applier.stateReplaced(timeout, () -> stateMachine.completeReplacing(applied));
        log.info("replica {}: state transfer from {} complete: {} entries in {} pages ({} bytes) in {} s; fetching what {}"
                + " applied after its table {}", config.replicaId(), providerId, entries, pages, bytes,
                String.format(Locale.ROOT, "%.1f", (nanos.getAsLong() - started) / 1e9), providerId, applied);
    }

    private CompletableFuture<byte[]> request(Address provider, SnapshotPage.Position position) {
        return peers.snapshotPage(provider, CommandCodec.encodeSnapshotRequest(position));
    }

    /** The page asked for with {@code first}; asked again (at most {@link #ATTEMPTS_PER_PAGE} in all) if it fails. */
    private byte[] await(CompletableFuture<byte[]> first, Address provider, SnapshotPage.Position position, Duration timeout)
            throws Exception {
        CompletableFuture<byte[]> attempt = first;
        for (int i = 1;; i++) {
            try {
                return attempt.get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                if (i >= ATTEMPTS_PER_PAGE || closed) {
                    throw new ReplicationException(ErrorCode.STATE_TRANSFER_FAILED,
                            "no page at " + position + " after " + i + " attempts: " + (e.getCause() == null ? e : e.getCause()),
                            e);
                }
                log.info("replica {}: page at {} of the state transfer failed ({}), asking again", config.replicaId(), position,
                        String.valueOf(e.getCause() == null ? e : e.getCause()));
                attempt = request(provider, position);
            }
        }
    }
}
