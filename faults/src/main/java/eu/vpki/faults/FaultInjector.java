package eu.vpki.faults;

import eu.vpki.testbed.Host;
import eu.vpki.testbed.HostNetwork;
import eu.vpki.testbed.ReplicaNode;
import eu.vpki.testbed.ServiceProcess;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Injects the faults of a schedule into a running cluster, one at a time, and waits after each
 * until the group has recovered (every replica healthy, every view whole) or a time limit passed.
 * Everything it does is recorded as a {@link FaultEvent} with the time of each step on the
 * {@link History}'s clock. Faults the network cannot carry (partitions on loopback) and sequencer
 * kills in FIFO order are recorded as skipped.
 */
final class FaultInjector {
    /** What a replica logs when it finds it must take a snapshot, and when it installs one (CommandFetcher). */
    static final String SNAPSHOT_TAKEN = "taking a snapshot";
    static final String SNAPSHOT_INSTALLED = "replaces its state with";
    /** How long a replica whose Redis was killed and restarted may take to rejoin by itself. */
    private static final Duration REJOIN_WAIT = Duration.ofSeconds(30);

    /**
     * @param health how long a started replica may take to report UP
     * @param views  how long the group may take to show one whole view after a fault ended
     */
    record Limits(Duration health, Duration views) {
        static Limits defaults() {
            return new Limits(Duration.ofMinutes(3), Duration.ofSeconds(120));
        }
    }

    private final List<ReplicaNode> replicas;
    private final HostNetwork network;
    private final GroupViews views;
    private final HttpClient http;
    private final History history;
    private final boolean totalOrder;
    private final Limits limits;
    private final Consumer<String> log;
    private final Duration clockOffset;
    private final Duration restartDelay;

    FaultInjector(List<ReplicaNode> replicas, HostNetwork network, HttpClient http, History history, boolean totalOrder, Limits limits,
                  FaultSchedule.Timing timing, Consumer<String> log) {
        this.clockOffset = timing.clockOffset();
        this.restartDelay = timing.restartDelayMin();
        this.replicas = List.copyOf(replicas);
        this.network = network;
        this.views = new GroupViews(replicas, http);
        this.http = http;
        this.history = history;
        this.totalOrder = totalOrder;
        this.limits = limits;
        this.log = log;
    }

    GroupViews views() {
        return views;
    }

    /** Steps and notes of the fault being injected. */
    private final class Recording {
        final FaultPlan plan;
        final long start = history.now();
        final List<FaultEvent.Step> steps = new ArrayList<>();
        final List<String> targets = new ArrayList<>();
        final StringBuilder note = new StringBuilder();
        boolean recovered = true;

        Recording(FaultPlan plan) {
            this.plan = plan;
        }

        void step(String name) {
            steps.add(new FaultEvent.Step(name, history.now()));
        }

        void note(String text) {
            if (!note.isEmpty()) {
                note.append("; ");
            }
            note.append(text);
        }

        FaultEvent done() {
            return new FaultEvent(plan.index(), plan.kind(), targets, start, history.now(), steps, recovered, note.toString());
        }
    }

    /** Records {@code plan} as not injected, with the reason. */
    FaultEvent skip(FaultPlan plan, String reason) {
        Recording rec = new Recording(plan);
        rec.note(reason);
        return rec.done();
    }

    /** Injects one fault and returns once the group recovered or the limits passed. */
    FaultEvent inject(FaultPlan plan) throws InterruptedException {
        Recording rec = new Recording(plan);
        if (plan.kind().network() && !network.partitionable()) {
            return skip(plan, "skipped: " + network.describe());
        }
        if (plan.kind() == FaultKind.SEQUENCER_KILL && !totalOrder) {
            return skip(plan, "skipped: FIFO order has no sequencer");
        }
        if (plan.kind().clock() && !replicas.get(plan.picks().get(0)).clockControllable()) {
            return skip(plan, "skipped: the replicas run without libfaketime (--clock-faults / apt-get install faketime)");
        }
        switch (plan.kind()) {
            case REPLICA_KILL -> kill(rec, replicas.get(plan.picks().get(0)));
            case SEQUENCER_KILL -> kill(rec, coordinatorOr(rec, plan));
            case REDIS_KILL -> redisKill(rec, replicas.get(plan.picks().get(0)));
            case PAUSE -> pause(rec, plan.targets().stream().map(replicas::get).toList());
            case PARTITION_MINORITY -> partition(rec, plan.targets().stream().map(replicas::get).toList());
            case PARTITION_COORDINATOR -> partition(rec, List.of(coordinatorOr(rec, plan)));
            case FULL_RESTART -> fullRestart(rec, replicas.get(plan.picks().get(0)));
            case LONG_OUTAGE -> kill(rec, replicas.get(plan.picks().get(0)));
            case DOUBLE_KILL -> killTogether(rec, plan.targets().stream().map(replicas::get).toList());
            case CATCHUP_CRASH -> catchUpCrash(rec, replicas.get(plan.picks().get(0)));
            case EMPTY_JOIN -> emptyJoin(rec, replicas.get(plan.picks().get(0)), false);
            case EMPTY_JOIN_CRASH -> emptyJoin(rec, replicas.get(plan.picks().get(0)), true);
            case REDIS_DATA_LOSS -> powerLoss(rec, replicas.get(plan.picks().get(0)));
            case SHORT_PAUSE -> pause(rec, List.of(replicas.get(plan.picks().get(0))));
            case PARTITION_REFUSING -> partitionRefusing(rec, plan.targets().stream().map(replicas::get).toList());
            case PARTITION_ONE_WAY -> partitionOneWay(rec, replicas.get(plan.picks().get(0)));
            case CLOCK_AHEAD -> clockOffset(rec, replicas.get(plan.picks().get(0)), clockOffset);
            case CLOCK_BEHIND -> clockOffset(rec, replicas.get(plan.picks().get(0)), clockOffset.negated());
            case CLOCK_STEP -> clockStep(rec, replicas.get(plan.picks().get(0)));
        }
        awaitWhole(rec);
        FaultEvent event = rec.done();
        log.accept(String.format("fault %d %s on %s: %.1f s%s%s", plan.index(), plan.kind().label(), event.targets(),
                (event.endMs() - event.startMs()) / 1000.0, event.recovered() ? "" : " (NOT recovered)",
                event.note().isEmpty() ? "" : " (" + event.note() + ")"));
        return event;
    }

    private ReplicaNode coordinatorOr(Recording rec, FaultPlan plan) {
        Optional<String> coordinator = views.coordinator();
        if (coordinator.isPresent()) {
            Optional<ReplicaNode> node = replicas.stream().filter(r -> r.name().equals(coordinator.get())).findFirst();
            if (node.isPresent()) {
                return node.get();
            }
        }
        rec.note("coordinator not found in the logs: took the scheduled replica");
        return replicas.get(plan.picks().get(0));
    }

    private void kill(Recording rec, ReplicaNode r) throws InterruptedException {
        rec.targets.add(r.name());
        r.killJvm();
        rec.step("killed");
        hold(rec.plan.holdMs());
        start(rec, List.of(r), "restarted");
    }

    private void killTogether(Recording rec, List<ReplicaNode> nodes) throws InterruptedException {
        nodes.forEach(r -> rec.targets.add(r.name()));
        nodes.forEach(ReplicaNode::killJvm);
        rec.step("killed");
        hold(rec.plan.holdMs());
        start(rec, nodes, "restarted");
    }

    /** Killed, down while the others take writes, started, killed again as soon as it is back in the group (catching up). */
    private void catchUpCrash(Recording rec, ReplicaNode r) throws InterruptedException {
        rec.targets.add(r.name());
        r.killJvm();
        rec.step("killed");
        hold(rec.plan.holdMs());
        r.startJvm();
        rec.step("restarted");
        try {
            r.awaitConnected(http, limits.health());
        } catch (IllegalStateException e) {
            rec.note(r.name() + " did not connect: " + firstLine(e.getMessage()));
        }
        RunRecord.Sample before = views.serving(r, history::now);
        r.killJvm();
        rec.step("killed-again");
        rec.note(before != null && before.serving()
                ? "it already served when killed again (its catch-up had ended)"
                : "killed again while not yet serving (catching up)");
        hold(timingRestart());
        start(rec, List.of(r), "restarted-again");
    }

    /**
     * A replaced host: JVM and Redis killed, the data deleted, both started again empty. With {@code crash}, the
     * joiner is killed again as soon as its log says it takes a snapshot, and started once more (on the half-written
     * state its Redis then holds). The note says whether the snapshot path was taken.
     */
    private void emptyJoin(Recording rec, ReplicaNode r, boolean crash) throws InterruptedException {
        rec.targets.add(r.name());
        r.killJvm();
        r.wipeRedis();
        rec.step("killed-and-wiped");
        hold(rec.plan.holdMs());
        r.startRedis();
        long logFrom = logLength(r);
        if (crash) {
            ServiceProcess jvm = r.startJvm();
            rec.step("restarted-empty");
            long deadline = System.nanoTime() + limits.health().toNanos();
            boolean seen = false;
            while (!seen && jvm.isAlive() && System.nanoTime() < deadline) {
                seen = logSince(jvm.log(), logFrom).contains(SNAPSHOT_TAKEN);
                if (!seen) {
                    hold(20);
                }
            }
            RunRecord.Sample before = views.serving(r, history::now);
            r.killJvm();
            rec.step("killed-during-snapshot");
            rec.note(!seen
                    ? "no snapshot began within the limit: killed anyway"
                    : before != null && before.serving()
                            ? "killed after its snapshot began, but it already served"
                            : "killed while taking its snapshot");
            hold(timingRestart());
            start(rec, List.of(r), "restarted-again");
        } else {
            start(rec, List.of(r), "restarted-empty");
        }
        String log = r.jvm() == null ? "" : logSince(r.jvm().log(), logFrom);
        rec.note(log.contains(SNAPSHOT_INSTALLED)
                ? "rejoined through a snapshot"
                : "no snapshot in its log: it caught up from the command logs (were they not trimmed yet?)");
    }

    /**
     * Power loss: JVM and redis-server killed together, and the append-only file cut back to its length of a
     * second before (what an {@code appendfsync everysec} Redis may lose with the kernel's page cache), then both
     * started again.
     */
    private void powerLoss(Recording rec, ReplicaNode r) throws InterruptedException {
        rec.targets.add(r.name());
        Path aof = r.appendOnlyFile();
        long before = size(aof);
        hold(1_000);
        r.killJvm();
        r.killRedis();
        rec.step("killed");
        Path now = r.appendOnlyFile();
        long after = size(now);
        if (aof == null || now == null || !aof.equals(now) || before < 0 || after < before) {
            rec.note("the append-only file was rewritten or missing in that second: nothing cut");
        } else {
            try (java.nio.channels.FileChannel f = java.nio.channels.FileChannel.open(now, java.nio.file.StandardOpenOption.WRITE)) {
                f.truncate(before);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot truncate " + now, e);
            }
            rec.note("cut the last " + (after - before) + " bytes of " + now.getFileName());
        }
        rec.step("aof-cut");
        hold(rec.plan.holdMs());
        r.startRedis();
        rec.step("redis-restarted");
        start(rec, List.of(r), "restarted");
    }

    private void partitionRefusing(Recording rec, List<ReplicaNode> side) throws InterruptedException {
        cutFor(rec, side, network::cutRefusing);
    }

    private void partitionOneWay(Recording rec, ReplicaNode from) throws InterruptedException {
        cutFor(rec, List.of(from), (cut, rest) -> network.cutOneWay(cut.get(0), rest));
    }

    /** Restarted with its clock off by {@code offset}, run under load for the hold, restarted with the right clock. */
    private void clockOffset(Recording rec, ReplicaNode r, Duration offset) throws InterruptedException {
        rec.targets.add(r.name());
        rec.note("clock " + (offset.isNegative() ? "behind" : "ahead") + " by " + offset.abs().toSeconds() + " s");
        r.stopJvm();
        r.setClockOffset(offset);
        rec.step("stopped");
        start(rec, List.of(r), "started-skewed");
        hold(rec.plan.holdMs());
        r.stopJvm();
        r.setClockOffset(Duration.ZERO);
        rec.step("stopped-again");
        start(rec, List.of(r), "started-right");
    }

    /** The running replica's clock steps ahead, runs so for the hold, and steps back. */
    private void clockStep(Recording rec, ReplicaNode r) throws InterruptedException {
        rec.targets.add(r.name());
        rec.note("clock stepped ahead by " + clockOffset.toSeconds() + " s, then back");
        r.setClockOffset(clockOffset);
        rec.step("stepped-ahead");
        hold(rec.plan.holdMs());
        r.setClockOffset(Duration.ZERO);
        rec.step("stepped-back");
    }

    private long timingRestart() {
        return Math.max(1_000, restartDelay.toMillis());
    }

    private static long size(Path file) {
        try {
            return file == null ? -1 : java.nio.file.Files.size(file);
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    private static long logLength(ReplicaNode r) {
        return r.jvm() == null ? 0 : size(r.jvm().log());
    }

    /** What the log holds from {@code offset} on (empty if unreadable). */
    private static String logSince(Path log, long offset) {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(log.toFile(), "r")) {
            long from = offset <= f.length() ? offset : 0;
            byte[] bytes = new byte[(int) Math.min(Integer.MAX_VALUE - 8, f.length() - from)];
            f.seek(from);
            f.readFully(bytes);
            return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private void redisKill(Recording rec, ReplicaNode r) throws InterruptedException {
        rec.targets.add(r.name());
        r.killRedis();
        rec.step("redis-killed");
        hold(rec.plan.holdMs());
        r.startRedis();
        rec.step("redis-restarted");
        // the replica left the group when its Redis failed and joins again by itself once Redis answers
        // (docs/replication.md, "Failures"); its JVM is restarted only if it has not rejoined in time
        long deadline = System.nanoTime() + REJOIN_WAIT.toNanos();
        int size = views.viewSize(r);
        while (size == 0 && System.nanoTime() < deadline) {
            hold(500);
            size = views.viewSize(r);
        }
        if (size == 0) {
            rec.note("replica had not rejoined within " + REJOIN_WAIT.toSeconds() + " s (view size 0): its JVM restarted");
            r.stopJvm();
            rec.step("replica-stopped");
            start(rec, List.of(r), "replica-restarted");
        } else {
            rec.note("replica kept running (view size " + size + ")");
        }
    }

    private void pause(Recording rec, List<ReplicaNode> paused) throws InterruptedException {
        paused.forEach(r -> rec.targets.add(r.name()));
        paused.forEach(ReplicaNode::pauseJvm);
        rec.step("paused");
        hold(rec.plan.holdMs());
        paused.forEach(ReplicaNode::resumeJvm);
        rec.step("resumed");
    }

    private void partition(Recording rec, List<ReplicaNode> side) throws InterruptedException {
        cutFor(rec, side, network::cut);
    }

    /** Cuts {@code side} from the other replicas with {@code cut}, holds, heals everything. */
    private void cutFor(Recording rec, List<ReplicaNode> side, java.util.function.BiConsumer<List<Host>, List<Host>> cut)
            throws InterruptedException {
        side.forEach(r -> rec.targets.add(r.name()));
        cut.accept(side.stream().map(ReplicaNode::host).toList(),
                replicas.stream().filter(r -> !side.contains(r)).map(ReplicaNode::host).toList());
        rec.step("cut");
        hold(rec.plan.holdMs());
        network.healAll();
        rec.step("healed");
    }

    private void fullRestart(Recording rec, ReplicaNode stalest) throws InterruptedException {
        rec.targets.add(stalest.name());
        stalest.killJvm();
        rec.step("stalest-killed");
        hold(rec.plan.holdMs());
        List<ReplicaNode> others = replicas.stream().filter(r -> r != stalest && r.jvmRunning()).toList();
        CompletableFuture.allOf(others.stream().map(r -> CompletableFuture.runAsync(r::stopJvm)).toArray(CompletableFuture[]::new)).join();
        rec.step("others-stopped");
        // the stalest alone is a minority (out of service) until the others join: wait until it formed the group
        stalest.startJvm();
        rec.step("stalest-started");
        try {
            stalest.awaitConnected(http, limits.health());
            rec.step("stalest-connected");
        } catch (IllegalStateException e) {
            rec.recovered = false;
            rec.note(stalest.name() + " did not connect: " + firstLine(e.getMessage()));
        }
        start(rec, others, "others-started");
        if (stalest.jvmRunning()) {
            try {
                stalest.awaitHealthy(http, limits.health());
            } catch (IllegalStateException e) {
                rec.recovered = false;
                rec.note(stalest.name() + " did not become healthy: " + firstLine(e.getMessage()));
            }
        }
    }

    /** Starts the replicas side by side and waits until each reports UP; a failure is noted and started once more. */
    private void start(Recording rec, List<ReplicaNode> nodes, String step) {
        nodes.forEach(ReplicaNode::startJvm);
        rec.step(step);
        for (ReplicaNode r : nodes) {
            try {
                r.awaitHealthy(http, limits.health());
            } catch (IllegalStateException e) {
                rec.recovered = false;
                rec.note(r.name() + " did not come up: " + firstLine(e.getMessage()));
                if (!r.jvmRunning()) {
                    r.startJvm();
                    try {
                        r.awaitHealthy(http, limits.health());
                        rec.note(r.name() + " came up at the second start");
                    } catch (IllegalStateException again) {
                        rec.note(r.name() + " did not come up at the second start either");
                    }
                }
            }
        }
        rec.step("healthy");
    }

    private void awaitWhole(Recording rec) throws InterruptedException {
        long deadline = System.nanoTime() + limits.views().toNanos();
        while (System.nanoTime() < deadline) {
            if (views.whole(replicas.size())) {
                rec.step("views-whole");
                return;
            }
            TimeUnit.MILLISECONDS.sleep(500);
        }
        rec.recovered = false;
        rec.note("views not whole " + limits.views().toSeconds() + " s after the fault ended");
    }

    /**
     * After the schedule (or on an error): heals the network, resumes paused replicas, starts every
     * redis-server and replica that is down, and waits for a whole group. Returns whether it got one.
     */
    boolean restoreAll() throws InterruptedException {
        network.healAll();
        for (ReplicaNode r : replicas) {
            if (r.clockControllable()) {
                r.setClockOffset(Duration.ZERO);
            }
            if (r.jvmRunning() && r.jvm().isPaused()) {
                r.resumeJvm();
            }
            if (!r.redisRunning()) {
                r.startRedis();
            }
        }
        Recording rec = new Recording(new FaultPlan(-1, FaultKind.REPLICA_KILL, List.of(0), 1, 0, 0));
        List<ReplicaNode> down = replicas.stream().filter(r -> !r.jvmRunning()).toList();
        if (!down.isEmpty()) {
            log.accept("starting replicas that are down: " + down.stream().map(ReplicaNode::name).toList());
            start(rec, down, "restored");
        }
        awaitWhole(rec);
        return rec.recovered;
    }

    private static void hold(long millis) throws InterruptedException {
        TimeUnit.MILLISECONDS.sleep(millis);
    }

    private static String firstLine(String text) {
        if (text == null) {
            return "";
        }
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
    }
}
