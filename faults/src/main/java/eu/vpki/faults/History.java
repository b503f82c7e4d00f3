package eu.vpki.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The run's clock and the operations recorded so far. Times are milliseconds since the run
 * started, from one monotonic clock shared by the workload and the fault injector, so that an
 * operation and a fault can be ordered exactly. Thread-safe.
 */
public final class History {
    private final long startNanos = System.nanoTime();
    private final AtomicLong ids = new AtomicLong();
    private final ConcurrentLinkedQueue<Op> ops = new ConcurrentLinkedQueue<>();

    /** Milliseconds since the run started. */
    public long now() {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }

    long nextId() {
        return ids.incrementAndGet();
    }

    void add(Op op) {
        ops.add(op);
    }

    /** The operations recorded so far, by id. */
    public List<Op> ops() {
        List<Op> list = new ArrayList<>(ops);
        list.sort(Comparator.comparingLong(Op::id));
        return list;
    }

    public int size() {
        return ops.size();
    }
}
