package eu.vpki.station.load;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Runs one phase of operations under a {@link LoadModel} and measures it. Operation {@code i} is
 * given its index so that callers can pick precomputed requests. An exception thrown by an
 * operation counts as a failure coded {@code client:<ExceptionName>}; operations still running
 * 30 s after the phase's deadline count as {@code client:timeout}. Besides the whole phase's
 * latency histogram, it keeps what completed in every second ({@link PhaseResult#timeline()}).
 */
public final class LoadRunner {
    /** Latencies above this are clamped (one minute, in microseconds). */
    private static final long MAX_TRACKABLE_MICROS = 60_000_000L;
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** One unit of work, e.g. the enrolment of station {@code index}. */
    @FunctionalInterface
    public interface Operation {
        Outcome run(long index) throws Exception;
    }

    /** Ends a running phase early: no operation starts once it is requested; those in flight finish. */
    public static final class Stop {
        private volatile boolean requested;

        public void request() {
            requested = true;
        }

        public boolean requested() {
            return requested;
        }
    }

    /** Live counters of a running phase, for the progress line. */
    public static final class Progress {
        private final String phase;
        private final long total;
        private final long startNanos = System.nanoTime();
        private final LongAdder done = new LongAdder();
        private final LongAdder ok = new LongAdder();

        Progress(String phase, long total) {
            this.phase = phase;
            this.total = total;
        }

        public String line() {
            long d = done.sum();
            double s = (System.nanoTime() - startNanos) / 1e9;
            return String.format("[%s] %d/%d done, %d ok, %d failed, %.0f ops/s", phase, d, total, ok.sum(), d - ok.sum(),
                    s > 0 ? d / s : 0.0);
        }
    }

    private static final class Phase {
        final Recorder recorder = new Recorder(MAX_TRACKABLE_MICROS, 3);
        final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
        final AtomicLong attempted = new AtomicLong();
        final Progress progress;
        /** Every success so far: the sum of the intervals taken from {@link #recorder}. */
        final Histogram total = new Histogram(MAX_TRACKABLE_MICROS, 3);
        final List<PhaseResult.Interval> timeline = new ArrayList<>();
        long intervalStartNanos;
        long doneBefore;
        long okBefore;

        Phase(Progress progress) {
            this.progress = progress;
        }

        /** Closes the interval that ends at {@code nowNanos}: what completed since the previous one. */
        synchronized void sample(long phaseStartNanos, long nowNanos) {
            Histogram interval = recorder.getIntervalHistogram();
            total.add(interval);
            long done = progress.done.sum();
            long ok = progress.ok.sum();
            long intervalOk = interval.getTotalCount();
            timeline.add(new PhaseResult.Interval((nowNanos - phaseStartNanos) / 1e9, (nowNanos - intervalStartNanos) / 1e9,
                    intervalOk, Math.max(0, (done - doneBefore) - (ok - okBefore)),
                    intervalOk == 0 ? 0 : interval.getValueAtPercentile(50) / 1000.0,
                    intervalOk == 0 ? 0 : interval.getValueAtPercentile(99) / 1000.0));
            intervalStartNanos = nowNanos;
            doneBefore = done;
            okBefore = ok;
        }

        void measure(Operation op, long index, long intendedStartNanos) {
            Outcome outcome;
            try {
                outcome = op.run(index);
            } catch (Exception e) {
                outcome = Outcome.failure("client:" + e.getClass().getSimpleName());
            }
            long micros = Math.min(MAX_TRACKABLE_MICROS, Math.max(1, (System.nanoTime() - intendedStartNanos) / 1000));
            if (outcome.success()) {
                recorder.recordValue(micros);
                progress.ok.increment();
            } else {
                failures.computeIfAbsent(outcome.code(), k -> new LongAdder()).increment();
            }
            progress.done.increment();
        }
    }

    /**
     * Runs {@code op} under {@code model}; {@code onStart} receives the live progress (e.g. for a progress line).
     *
     * @param operation what {@code op} does, e.g. {@link PhaseResult#AUTHORIZATION}
     */
    public PhaseResult run(String name, String operation, LoadModel model, Operation op, Consumer<Progress> onStart) {
        return run(name, operation, model, op, onStart, new Stop());
    }

    /** As {@link #run(String, String, LoadModel, Operation, Consumer)}, ending early once {@code stop} is requested. */
    public PhaseResult run(String name, String operation, LoadModel model, Operation op, Consumer<Progress> onStart, Stop stop) {
        Phase phase = new Phase(new Progress(name, model.maxOperations()));
        onStart.accept(phase.progress);
        Instant startedAt = Instant.now();
        long start = System.nanoTime();
        phase.intervalStartNanos = start;
        long deadline = start + model.maxDuration().toNanos();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(daemonThreads(name + "-sampler"));
        sampler.scheduleAtFixedRate(() -> phase.sample(start, System.nanoTime()), INTERVAL_NANOS, INTERVAL_NANOS, TimeUnit.NANOSECONDS);
        ExecutorService workers;
        String description;
        Double offered = null;
        if (model instanceof LoadModel.Open open) {
            workers = Executors.newFixedThreadPool(open.workers(), daemonThreads(name));
            description = String.format(java.util.Locale.ROOT, "open loop at %.1f/s", open.ratePerSecond());
            offered = open.ratePerSecond();
            offerOpen(open, op, phase, workers, start, deadline, stop);
        } else if (model instanceof LoadModel.Paced paced) {
            workers = Executors.newFixedThreadPool(paced.workers(), daemonThreads(name));
            description = String.format(java.util.Locale.ROOT, "paced at most %.1f/s by %d workers", paced.ratePerSecond(),
                    paced.workers());
            offered = paced.ratePerSecond();
            offerPaced(paced, op, phase, workers, start, deadline, stop);
        } else {
            LoadModel.Closed closed = (LoadModel.Closed) model;
            workers = Executors.newFixedThreadPool(closed.concurrency(), daemonThreads(name));
            description = "closed loop with " + closed.concurrency() + " in flight";
            offerClosed(closed, op, phase, workers, deadline, stop);
        }
        workers.shutdown();
        try {
            if (!workers.awaitTermination(Math.max(0, deadline - System.nanoTime()) + GRACE_NANOS, TimeUnit.NANOSECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        sampler.shutdownNow();
        try {
            sampler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long end = System.nanoTime();
        long elapsed = end - start;
        phase.sample(start, end);
        Map<String, Long> byCode = new TreeMap<>();
        phase.failures.forEach((k, v) -> byCode.put(k, v.sum()));
        long unfinished = phase.attempted.get() - phase.progress.done.sum();
        if (unfinished > 0) {
            byCode.merge("client:timeout", unfinished, Long::sum);
        }
        return new PhaseResult(name, operation, description, offered, phase.attempted.get(), phase.progress.ok.sum(), byCode,
                startedAt, Duration.ofNanos(elapsed), phase.total, List.copyOf(phase.timeline));
    }

    /** Open loop: operation i is due at start + i/rate; latency counts from that intended time. */
    private static void offerOpen(LoadModel.Open m, Operation op, Phase phase, ExecutorService workers, long start, long deadline,
                                  Stop stop) {
        double intervalNanos = 1e9 / m.ratePerSecond();
        try {
            for (long i = 0; i < m.maxOperations(); i++) {
                long intended = start + (long) (i * intervalNanos);
                if (intended >= deadline || stop.requested()) {
                    return;
                }
                long wait = intended - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                if (stop.requested()) {
                    return;
                }
                long index = i;
                phase.attempted.incrementAndGet();
                workers.execute(() -> phase.measure(op, index, intended));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closed loop: each worker takes the next index as soon as its previous operation ended. */
    private static void offerClosed(LoadModel.Closed m, Operation op, Phase phase, ExecutorService workers, long deadline, Stop stop) {
        AtomicLong next = new AtomicLong();
        for (int w = 0; w < m.concurrency(); w++) {
            workers.execute(() -> {
                long i;
                while (!stop.requested() && System.nanoTime() < deadline && (i = next.getAndIncrement()) < m.maxOperations()) {
                    phase.attempted.incrementAndGet();
                    phase.measure(op, i, System.nanoTime());
                }
            });
        }
    }

    /**
     * Paced: each worker takes the next start slot of a shared rate cap, waits for it, and runs its
     * operation to the end before taking another; latency counts from the slot.
     */
    private static void offerPaced(LoadModel.Paced m, Operation op, Phase phase, ExecutorService workers, long start, long deadline,
                                   Stop stop) {
        long intervalNanos = Math.max(1, (long) (1e9 / m.ratePerSecond()));
        AtomicLong nextSlot = new AtomicLong(start);
        AtomicLong next = new AtomicLong();
        for (int w = 0; w < m.workers(); w++) {
            workers.execute(() -> {
                try {
                    while (!stop.requested()) {
                        long slot;
                        synchronized (nextSlot) {
                            slot = Math.max(System.nanoTime(), nextSlot.get());
                            nextSlot.set(slot + intervalNanos);
                        }
                        if (slot >= deadline) {
                            return;
                        }
                        long wait = slot - System.nanoTime();
                        if (wait > 0) {
                            TimeUnit.NANOSECONDS.sleep(wait);
                        }
                        long i = next.getAndIncrement();
                        if (stop.requested() || i >= m.maxOperations()) {
                            return;
                        }
                        phase.attempted.incrementAndGet();
                        phase.measure(op, i, slot);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }

    private static ThreadFactory daemonThreads(String phase) {
        AtomicLong n = new AtomicLong();
        return r -> {
            Thread t = new Thread(r, "load-" + phase + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
