package eu.vpki.common.process;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Reaps one child process: SIGTERM and a bounded wait ({@link #stop()}), SIGKILL ({@link #kill()}),
 * waiting for the exit, and a JVM shutdown hook that ends every child still running, so that neither
 * Ctrl-C nor a crash of this JVM leaves orphans behind. What the child is (a {@code redis-server}, a
 * service's JVM) and how it is started and checked stays with its owner ({@code RedisServer}, the
 * testbed's {@code ServiceProcess}).
 */
public final class ChildProcess {
    private static final Set<ChildProcess> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ChildProcess::reapRunning, "vpki-child-reaper"));
    }

    private final Process process;
    private final String name;
    private final Duration stopTimeout;
    private final Duration exitGrace;
    private volatile boolean terminated;

    private ChildProcess(Process process, String name, Duration stopTimeout, Duration exitGrace) {
        this.process = process;
        this.name = name;
        this.stopTimeout = stopTimeout;
        this.exitGrace = exitGrace;
    }

    /**
     * Starts {@code builder}'s command and registers it for reaping.
     *
     * @param name        how errors name it, e.g. {@code redis-server on port 6379}
     * @param stopTimeout how long {@link #stop()} waits after SIGTERM before SIGKILL, and how long
     *                    {@link #awaitExit()} waits for the exit
     * @param exitGrace   when this JVM exits: zero to SIGKILL it at once, else SIGTERM and SIGKILL after this long
     */
    public static ChildProcess start(ProcessBuilder builder, String name, Duration stopTimeout, Duration exitGrace)
            throws IOException {
        ChildProcess child = new ChildProcess(builder.start(), name, stopTimeout, exitGrace);
        RUNNING.add(child);
        return child;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The exit value; fails if it is still running. */
    public int exitValue() {
        return process.exitValue();
    }

    /** SIGTERM without waiting, once (a second call sends nothing). */
    public void terminate() {
        if (process.isAlive() && !terminated) {
            terminated = true;
            process.destroy();
        }
    }

    /** SIGKILL, as a crash would, then waits for the exit ({@link #awaitExit()}). */
    public void kill() {
        process.destroyForcibly();
        awaitExit();
    }

    /** SIGTERM (unless already sent), SIGKILL if it has not exited within the stop timeout, then {@link #awaitExit()}. */
    public void stop() {
        terminate();
        try {
            if (!process.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        awaitExit();
    }

    /** Waits up to {@code timeout} for it to exit on its own; whether it did. */
    public boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits up to the stop timeout for the exit and forgets the process (the shutdown hook no longer
     * reaps it); fails if it is still running then.
     */
    public void awaitExit() {
        try {
            process.onExit().get(stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException(name + " did not exit", e);
        } finally {
            RUNNING.remove(this);
        }
    }

    /** What the shutdown hook does: ends every child still registered, each after its exit grace. */
    static void reapRunning() {
        List<ChildProcess> left = List.copyOf(RUNNING);
        for (ChildProcess child : left) {
            if (child.exitGrace.isZero()) {
                child.process.destroyForcibly();
            } else {
                child.process.destroy();
            }
        }
        for (ChildProcess child : left) {
            if (!child.exitGrace.isZero()) {
                try {
                    if (!child.process.waitFor(child.exitGrace.toMillis(), TimeUnit.MILLISECONDS)) {
                        child.process.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    child.process.destroyForcibly();
                }
            }
        }
    }

    /** Whether the shutdown hook would still reap it. */
    boolean registered() {
        return RUNNING.contains(this);
    }
}
