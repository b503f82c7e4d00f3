package eu.vpki.common.testing;

import eu.vpki.common.error.PkiException;

import java.lang.management.ManagementFactory;

/**
 * The property every fuzz target checks: code reachable from the network answers any input either
 * normally or with our one error type, {@link PkiException}, and never allocates more than a bound
 * while doing so. Anything else (another exception, an {@link OutOfMemoryError}, a
 * {@link StackOverflowError}, a {@link PkiException} caused by one of those two, or an allocation
 * above the bound) fails the fuzz test, and Jazzer keeps the input as a finding.
 *
 * <p>The allocation is measured per thread with {@code com.sun.management.ThreadMXBean} (bytes
 * allocated by the calling thread, TLAB-exact), so work on other threads is not counted: targets
 * run their code on the calling thread. Loading (and, while fuzzing, instrumenting) the classes a
 * new code path needs allocates on the calling thread too, once; so an input above the bound is
 * run a second time and counts as a violation only if it exceeds the bound again. An allocation an
 * input asks for is the same on every run.
 */
public final class FuzzContract {
    /** Default per-input allocation bound: far above what any well-formed message of 1 MiB needs to decode. */
    public static final long DEFAULT_MAX_ALLOCATED_BYTES = 64L << 20;

    private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private FuzzContract() {
    }

    /** {@link #check(long, Runnable)} with {@link #DEFAULT_MAX_ALLOCATED_BYTES}. */
    public static void check(Runnable target) {
        check(DEFAULT_MAX_ALLOCATED_BYTES, target);
    }

    /**
     * Runs {@code target}; returns normally when it returned or threw a {@link PkiException} not
     * caused by a virtual-machine error, and when the calling thread allocated at most
     * {@code maxAllocatedBytes} meanwhile.
     *
     * @throws AssertionError describing the violation otherwise (the original throwable as cause)
     */
    public static void check(long maxAllocatedBytes, Runnable target) {
        long allocated = allocatedBy(target);
        if (allocated > maxAllocatedBytes) {
            allocated = allocatedBy(target);
            if (allocated > maxAllocatedBytes) {
                throw new AssertionError("one input allocated " + allocated + " bytes (bound " + maxAllocatedBytes + ")");
            }
        }
    }

    private static long allocatedBy(Runnable target) {
        long thread = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(thread);
        try {
            target.run();
        } catch (PkiException typed) {
            for (Throwable c = typed.getCause(); c != null; c = c.getCause()) {
                if (c instanceof VirtualMachineError) {
                    throw new AssertionError("typed error " + typed.code() + " hides " + c, typed);
                }
            }
        } catch (RuntimeException | Error untyped) {
            throw new AssertionError("untyped failure escaped: " + untyped, untyped);
        }
        return THREADS.getThreadAllocatedBytes(thread) - before;
    }
}
