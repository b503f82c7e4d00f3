package eu.vpki.shell.etsi;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads on which the access points' work that may wait runs (a replicated command, a read of the replica's
 * Redis), so that it never holds up an event loop: at most {@code threads}, started as needed, and ended after a
 * minute idle. Beyond that many at once, {@link #execute} refuses ({@link RejectedExecutionException}; the server
 * answers 503 {@code UNAVAILABLE}) instead of queueing work no thread would take.
 */
public final class AccessPointWorkers implements Executor, AutoCloseable {
    private final ThreadPoolExecutor pool;

    public AccessPointWorkers(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("at least one worker thread, got " + threads);
        }
        AtomicInteger count = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(0, threads, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "vpki-access-point-worker-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** @throws RejectedExecutionException when every thread is busy */
    @Override
    public void execute(Runnable work) {
        pool.execute(work);
    }

    public int maxThreads() {
        return pool.getMaximumPoolSize();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
