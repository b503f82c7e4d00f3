package eu.vpki.common.replication;

import org.jgroups.Address;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Keeps one member's state complete: members report what they applied ({@link AppliedReport}: a
 * version vector plus what their command logs hold) every status interval and after every view
 * change; a member that lacks commands some peer applied fetches them from that peer's log and hands
 * them to its {@link Applier}. This one mechanism covers a command that reached only some members
 * (a crashed origin or sequencer), a member that was down, paused or cut off (after the merge each
 * side fetches what the other side applied), and a full restart (nobody's state is replaced; the
 * stalest member fetches what the others have). Logs are trimmed once every expected member applied
 * a command; a member that needs a trimmed command takes a snapshot from a member that holds all it
 * holds ({@link Peers#fetchState}).
 *
 * <p>It also decides whether this member may serve requests ({@link #serving}): its view holds a
 * majority of the expected members, a majority holds its lease (so a member cut off or paused stops
 * serving within the lease, before a SYNC write it never received can be acknowledged without it:
 * the lease is shorter than the reply timeout), after joining or a merge it
 * has applied everything a majority had applied, it holds no gap, and it is not lagging (nothing it
 * was told of, or received, has waited longer than the lease). See
 * {@code docs/design-replication-recovery.md}.
 *
 * <p>The lease is a round trip: each report carries a stamp of this member's monotonic clock taken
 * before it is sent, peers echo the stamp of the latest report they received in their own reports,
 * and a peer holds this member's lease for {@link ReplicationConfig#lease()} from the stamp it
 * echoed, that is from when this member SENT what the peer answered. A report delivered or processed
 * late (a loaded machine) extends the lease from its sending, so it ends sooner, never later: cut off
 * at time t, this member stops serving by t + lease on its own clock, whatever the delays.
 *
 * <p>Threads: reports arrive on JGroups threads ({@link #reportReceived}); {@link #tick()} and
 * {@link #evaluate()} run on the replica's control thread; {@link #serving} is called by any thread.
 */
final class AntiEntropy {

    private static final Logger log = LoggerFactory.getLogger(AntiEntropy.class);
    /** Commands per pull, and about the bytes per pull. */
    static final int PULL_COMMANDS = 512;
    static final long PULL_BYTES = 4L * 1024 * 1024;
    /** How far fetched commands may run ahead of what the applier applied. */
    private static final int PULL_AHEAD = 8 * PULL_COMMANDS;
    /**
     * Trim only what every member had applied 20 status intervals ago (10 s by default: a Redis restart
     * loses up to a second of writes, and its replica then fetches them again), every 10 intervals.
     */
    private static final int TRIM_DELAY_INTERVALS = 20;
    private static final int TRIM_EVERY_INTERVALS = 10;
    /** Stamps of sent reports kept to recognise echoes: far more than one lease's worth (four). */
    private static final int SENT_STAMPS_KEPT = 64;

    /** How this member reaches its peers (implemented over the JGroups channel). */
    interface Peers {
        /** Sends this member's report to every member of the view. */
        void broadcast(byte[] report);

        /** Asks {@code peer} for commands of its log; completes with the encoded answer ({@link CommandCodec#COMMANDS}). */
        CompletableFuture<byte[]> pull(Address peer, byte[] request);

        /** Replaces this member's state with {@code provider}'s (blocking; on the control thread). */
        void fetchState(Address provider) throws Exception;
    }

    private record Heard(AppliedReport report, long nanos) {
    }

    /** A level of an origin a peer had reached when this member first saw it was below it. */
    private record Behind(long level, long sinceNanos) {
    }

    /** The per-origin minimum applied by every member, as computed at {@code nanos}. */
    private record Minimum(long nanos, Map<String, Long> applied) {
    }

    private final ReplicationConfig config;
    private final String origin;
    private final Applier applier;
    private final AppliedWatermarks watermarks;
    private final CommandLog commandLog;
    private final Peers peers;
    private final ReplicationMetrics metrics;
    private final OriginAuthentication authentication;
    private final long leaseNanos;
    private final long pullDelayNanos;
    private final long trimDelayNanos;
    private final long trimEveryNanos;

    private final Map<Address, Heard> heard = new ConcurrentHashMap<>();
    /** Per peer, the stamp of this member's latest report that the peer echoed (when this member sent it). */
    private final Map<Address, Long> leaseFrom = new ConcurrentHashMap<>();
    /** Stamps of this member's latest reports, oldest first (an echo of anything else extends nothing). */
    private final Deque<Long> sentStamps = new ArrayDeque<>();
    private final LongSupplier nanos;
    private final Map<String, Long> logFirst = new ConcurrentHashMap<>();
    /** Per origin, the last sequence number fetched from a peer and handed to the applier. */
    private final Map<String, Long> fetched = new ConcurrentHashMap<>();
    private final Set<String> pulling = ConcurrentHashMap.newKeySet();
    private volatile View view;
    private volatile boolean synced;
    private volatile long syncStartNanos;
    private volatile boolean lagging;
    private volatile long missing;
    private volatile boolean snapshotNeeded;
    private volatile Address self;

    // control thread only
    private Map<String, Long> syncTarget;
    private long syncDeliveredMark;
    private final Map<String, Behind> behindReceived = new HashMap<>();
    private final Map<String, Behind> behindApplied = new HashMap<>();
    private final Deque<Minimum> minima = new ArrayDeque<>();
    private long lastTrimNanos;

    /** @param nanos this member's monotonic clock ({@code System::nanoTime}; a fake one in tests) */
    AntiEntropy(ReplicationConfig config, String origin, Applier applier, AppliedWatermarks watermarks,
                CommandLog commandLog, Peers peers, ReplicationMetrics metrics, OriginAuthentication authentication,
                LongSupplier nanos) {
        this.nanos = nanos;
        this.config = config;
        this.origin = origin;
        this.applier = applier;
        this.watermarks = watermarks;
        this.commandLog = commandLog;
        this.peers = peers;
        this.metrics = metrics;
        this.authentication = authentication;
        this.leaseNanos = config.lease().toNanos();
        this.pullDelayNanos = config.statusInterval().toNanos();
        this.trimDelayNanos = config.statusInterval().multipliedBy(TRIM_DELAY_INTERVALS).toNanos();
        this.trimEveryNanos = config.statusInterval().multipliedBy(TRIM_EVERY_INTERVALS).toNanos();
    }

    /**
     * After joining as {@code address}: not serving until caught up with a majority, unless this
     * member alone is a majority (a one-member group has nobody to catch up with).
     */
    void start(Address address, View initial) {
        self = address;
        view = initial;
        syncStartNanos = nanos.getAsLong();
        synced = config.majority() == 1;
        for (String of : watermarks.snapshot().keySet()) {
            knownLogFirst(of);
        }
    }

    /**
     * A new view: reports of members that left are forgotten. After a merge this member serves again
     * only once it caught up with what a majority applied (the other side may have written meanwhile).
     */
    void viewChanged(View newView, boolean merge) {
        view = newView;
        heard.keySet().removeIf(member -> !newView.containsMember(member));
        leaseFrom.keySet().removeIf(member -> !newView.containsMember(member));
        if (merge) {
            synced = false;
            syncStartNanos = nanos.getAsLong();
        }
    }

    /**
     * A report from {@code member} (JGroups thread). If it echoes the stamp of a report this member sent,
     * the member holds this member's lease from that stamp.
     */
    void reportReceived(Address member, AppliedReport report) {
        View current = view;
        if (current != null && current.containsMember(member) && !member.equals(self)) {
            Heard before = heard.get(member);
            if (before != null && before.report().origin().equals(report.origin()) && report.stamp() <= before.report().stamp()) {
                return; // an older report of that incarnation (replayed, or overtaken): nothing new
            }
            heard.put(member, new Heard(report, nanos.getAsLong()));
            Long echoed = report.echoes().get(origin);
            if (echoed != null && sentStamp(echoed)) {
                leaseFrom.merge(member, echoed, Math::max);
            }
        }
    }

    private boolean sentStamp(long stamp) {
        synchronized (sentStamps) {
            return sentStamps.contains(stamp);
        }
    }

    /** Every status interval (control thread): report, fetch what is missing, trim the log. */
    void tick() {
        peers.broadcast(CommandCodec.encodeReport(report()));
        evaluate();
        trimIfStable();
    }

    /**
     * This member's report, to be sent now: stamped with this member's clock (remembered, so that an
     * echo of it can be recognised) and echoing each peer's latest stamp.
     */
    AppliedReport report() {
        long stamp = nanos.getAsLong();
        synchronized (sentStamps) {
            if (sentStamps.isEmpty() || sentStamps.peekLast() != stamp) {
                sentStamps.addLast(stamp);
            }
            while (sentStamps.size() > SENT_STAMPS_KEPT) {
                sentStamps.pollFirst();
            }
        }
        Map<String, Long> echoes = new HashMap<>();
        heard.forEach((member, entry) -> {
            if (inView(member)) {
                echoes.put(entry.report().origin(), entry.report().stamp());
            }
        });
        Map<String, Long> applied = watermarks.snapshot();
        Map<String, Long> from = new HashMap<>();
        for (String of : applied.keySet()) {
            long first = knownLogFirst(of);
            if (first > 0) {
                from.put(of, first);
            }
        }
        return new AppliedReport(CommandId.replicaIdOf(origin), origin, serving(stamp), applied, from, stamp, echoes);
    }

    /** The first logged command of {@code of}, read once per origin (0 while the log holds none). */
    private long knownLogFirst(String of) {
        Long known = logFirst.get(of);
        if (known != null) {
            return known;
        }
        long first = commandLog.first(of);
        if (first > 0) {
            logFirst.put(of, first);
        }
        return first;
    }

    /** Compares with the latest reports: fetches what is missing, updates the lag and the sync state. */
    void evaluate() {
        long now = nanos.getAsLong();
        Map<Address, AppliedReport> fresh = freshReports(now);
        Map<String, Long> best = new HashMap<>();
        for (AppliedReport report : fresh.values()) {
            report.applied().forEach((of, seq) -> best.merge(of, seq, Math::max));
        }
        Map<String, Applier.Gap> gaps = applier.gaps();
        Set<String> origins = new HashSet<>(best.keySet());
        origins.addAll(gaps.keySet());
        behindApplied.keySet().retainAll(origins); // no member of the view claims more of the others
        behindReceived.keySet().retainAll(origins);
        long missingNow = 0;
        for (String of : origins) {
            long applied = watermarks.appliedSeq(of);
            long top = best.getOrDefault(of, 0L);
            missingNow += Math.max(0, top - applied);
            track(behindApplied, of, applied, top, now);
            long have = Math.max(Math.max(applied, applier.received(of)), fetched.getOrDefault(of, 0L));
            Behind received = track(behindReceived, of, have, top, now);
            Applier.Gap gap = gaps.get(of);
            if (gap != null && fetched.getOrDefault(of, 0L) < gap.heldFrom() - 1) {
                pull(of, Math.max(gap.from(), fetched.getOrDefault(of, 0L) + 1), gap.heldFrom() - 1, fresh);
            } else if (received != null && now - received.sinceNanos() >= pullDelayNanos && top > have
                    && have - applied < PULL_AHEAD) {
                pull(of, have + 1, top, fresh);
            }
        }
        missing = missingNow;
        lagging = behindApplied.values().stream().anyMatch(behind -> now - behind.sinceNanos() > leaseNanos);
        if (snapshotNeeded) {
            snapshot(fresh);
        }
        if (!synced) {
            checkSynced(now);
        }
    }

    /**
     * Remembers since when {@code have} is below a level a peer reached: a new level once the old one is
     * reached; the same time but a lower level if the peer that reported it left; nothing once no
     * fresh report claims more than {@code have}.
     */
    private static Behind track(Map<String, Behind> behind, String of, long have, long top, long now) {
        if (top <= have) {
            behind.remove(of);
            return null;
        }
        Behind current = behind.get(of);
        if (current == null || have >= current.level()) {
            current = new Behind(top, now);
        } else if (current.level() > top) {
            current = new Behind(top, current.sinceNanos());
        }
        behind.put(of, current);
        return current;
    }

    private void pull(String of, long from, long upTo, Map<Address, AppliedReport> fresh) {
        if (from > upTo || pulling.contains(of)) {
            return;
        }
        long to = Math.min(upTo, from + PULL_COMMANDS - 1);
        Address peer = servingPeer(of, from, fresh);
        if (peer == null) {
            if (fresh.values().stream().anyMatch(report -> report.applied(of) >= from)) {
                if (!snapshotNeeded) {
                    log.warn("replica {} lacks commands {}..{} of {} that no peer's log holds any more: taking a snapshot",
                            config.replicaId(), from, to, of);
                }
                snapshotNeeded = true;
            }
            return;
        }
        pulling.add(of);
        byte[] request = CommandCodec.encodePull(new CommandCodec.Pull(of, from, to));
        peers.pull(peer, request).whenComplete((answer, error) -> {
            try {
                if (error != null || answer == null) {
                    log.debug("pull of {} {}..{} from {} failed: {}", of, from, to, peer, String.valueOf(error));
                    return;
                }
                List<Command> commands = authentic(CommandCodec.decodeCommands(answer), peer);
                if (commands.isEmpty() || commands.get(0).id().seq() != from) {
                    log.debug("pull of {} {}..{} from {} answered {} command(s) from another start", of, from, to, peer,
                            commands.size());
                    return;
                }
                long last = commands.get(commands.size() - 1).id().seq();
                fetched.merge(of, last, Math::max);
                applier.recover(commands);
                metrics.recovered(commands.size());
                log.info("replica {} fetched {} command(s) of {} ({}..{}) from {}", config.replicaId(), commands.size(),
                        of, from, last, peer);
            } catch (RuntimeException e) {
                log.warn("unusable answer to a pull of {} from {}: {}", of, peer, e.toString());
            } finally {
                pulling.remove(of);
            }
        });
    }

    /**
     * The commands of a pull's answer up to the first one its origin did not issue ({@link OriginAuthentication}),
     * which is refused, logged and counted with the rest of the answer: a peer relays other origins' commands
     * from its log, so each must carry its own origin's signature.
     */
    private List<Command> authentic(List<Command> commands, Address peer) {
        for (int i = 0; i < commands.size(); i++) {
            String refusal = authentication.refusal(commands.get(i));
            if (refusal != null) {
                metrics.refused("pull", commands.size() - i);
                log.warn("refused command {} fetched from {}'s log (and the {} after it in that answer): {}",
                        commands.get(i).id(), peer, commands.size() - i - 1, refusal);
                return commands.subList(0, i);
            }
        }
        return commands;
    }

    /** A fresh peer whose log holds {@code of} from {@code from}: the origin itself if it is one, else the most advanced. */
    private static Address servingPeer(String of, long from, Map<Address, AppliedReport> fresh) {
        Address chosen = null;
        long chosenApplied = -1;
        for (Map.Entry<Address, AppliedReport> entry : fresh.entrySet()) {
            AppliedReport report = entry.getValue();
            if (report.applied(of) < from || report.logFrom(of) > from) {
                continue;
            }
            if (report.origin().equals(of)) {
                return entry.getKey();
            }
            if (report.applied(of) > chosenApplied) {
                chosen = entry.getKey();
                chosenApplied = report.applied(of);
            }
        }
        return chosen;
    }

    /** Replaces this member's state with a peer's that holds everything this member holds. */
    private void snapshot(Map<Address, AppliedReport> fresh) {
        Map<String, Long> mine = watermarks.snapshot();
        for (Map.Entry<Address, AppliedReport> entry : fresh.entrySet()) {
            AppliedReport report = entry.getValue();
            if (dominates(report.applied(), mine)) {
                log.warn("replica {} replaces its state with {}'s snapshot", config.replicaId(), report.replicaId());
                try {
                    peers.fetchState(entry.getKey());
                    snapshotNeeded = false;
                    fetched.clear();
                    logFirst.clear();
                } catch (Exception e) {
                    log.warn("snapshot from {} failed: {}", report.replicaId(), e.toString());
                }
                return;
            }
        }
        log.info("replica {} waits for a peer that holds everything it holds before taking a snapshot", config.replicaId());
    }

    private static boolean dominates(Map<String, Long> theirs, Map<String, Long> mine) {
        for (Map.Entry<String, Long> entry : mine.entrySet()) {
            if (theirs.getOrDefault(entry.getKey(), 0L) < entry.getValue()) {
                return false;
            }
        }
        return true;
    }

    /**
     * After joining or a merge: once reports from a majority (this member included) arrived, the
     * target is everything they applied; this member is synced once it applied the target, handled
     * every command delivered until then, and holds no gap.
     */
    private void checkSynced(long now) {
        if (syncTarget == null) {
            List<AppliedReport> since = new ArrayList<>();
            heard.forEach((member, entry) -> {
                if (entry.nanos() >= syncStartNanos && inView(member)) {
                    since.add(entry.report());
                }
            });
            if (since.size() + 1 < config.majority()) {
                return;
            }
            Map<String, Long> target = new HashMap<>();
            since.forEach(report -> report.applied().forEach((of, seq) -> target.merge(of, seq, Math::max)));
            syncTarget = target;
            syncDeliveredMark = applier.deliveredCount();
        }
        for (Map.Entry<String, Long> entry : syncTarget.entrySet()) {
            if (watermarks.appliedSeq(entry.getKey()) < entry.getValue()) {
                return;
            }
        }
        if (applier.processed() >= syncDeliveredMark && applier.gaps().isEmpty()) {
            synced = true;
            syncTarget = null;
            log.info("replica {} caught up with a majority after {} ms; serving", config.replicaId(),
                    Duration.ofNanos(now - syncStartNanos).toMillis());
        }
    }

    /** Trims the log of what every expected member had applied {@link #TRIM_DELAY_INTERVALS} status intervals ago. */
    private void trimIfStable() {
        long now = nanos.getAsLong();
        if (now - lastTrimNanos < trimEveryNanos) {
            return;
        }
        lastTrimNanos = now;
        View current = view;
        Map<Address, AppliedReport> fresh = freshReports(now);
        Set<String> replicas = new HashSet<>();
        replicas.add(config.replicaId());
        fresh.values().forEach(report -> replicas.add(report.replicaId()));
        if (current == null || current.size() < config.expectedMembers() || fresh.size() + 1 < current.size()
                || replicas.size() < config.expectedMembers()) {
            // somebody is missing: keep everything for it (a member counts once per replica id: with sender
            // authentication a second holder of one replica's key does not stand in for an absent replica)
            minima.clear();
            return;
        }
        Map<String, Long> minimum = new HashMap<>(watermarks.snapshot());
        for (AppliedReport report : fresh.values()) {
            minimum.replaceAll((of, seq) -> Math.min(seq, report.applied(of)));
        }
        minima.addLast(new Minimum(now, minimum));
        Minimum usable = null;
        while (!minima.isEmpty() && now - minima.peekFirst().nanos() >= trimDelayNanos) {
            usable = minima.pollFirst();
        }
        if (usable == null) {
            return;
        }
        usable.applied().forEach((of, seq) -> {
            long first = knownLogFirst(of);
            if (first > 0 && seq >= first) {
                commandLog.trimThrough(of, seq);
                logFirst.put(of, seq + 1);
            }
        });
    }

    private Map<Address, AppliedReport> freshReports(long now) {
        Map<Address, AppliedReport> fresh = new HashMap<>();
        heard.forEach((member, entry) -> {
            if (now - entry.nanos() <= leaseNanos && inView(member)) {
                fresh.put(member, entry.report());
            }
        });
        return fresh;
    }

    private boolean inView(Address member) {
        View current = view;
        return current != null && current.containsMember(member);
    }

    /** Whether this member may serve requests now (any thread). */
    boolean serving(long now) {
        return synced && !lagging && applier.gaps().isEmpty() && majorityView() && leaseHolds(now) && !waitedTooLong(now);
    }

    boolean majorityView() {
        View current = view;
        return current != null && config.isMajority(current.size());
    }

    /**
     * Whether enough members (itself included) to form a majority hold this member's lease at {@code now}:
     * each echoed a report this member sent no longer than the lease ago.
     */
    boolean leaseHolds(long now) {
        int members = 1;
        for (Map.Entry<Address, Long> entry : leaseFrom.entrySet()) {
            if (now - entry.getValue() <= leaseNanos && inView(entry.getKey())) {
                members++;
            }
        }
        return members >= config.majority();
    }

    private boolean waitedTooLong(long now) {
        long oldest = applier.oldestWaitingNanos();
        return oldest != 0 && now - oldest > leaseNanos;
    }

    boolean synced() {
        return synced;
    }

    boolean lagging(long now) {
        return lagging || waitedTooLong(now);
    }

    /** Commands some member applied that this one has not (includes what is merely in flight). */
    long missing() {
        return missing;
    }
}
