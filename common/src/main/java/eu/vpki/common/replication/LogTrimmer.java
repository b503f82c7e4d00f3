package eu.vpki.common.replication;

import org.jgroups.Address;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Trims this member's {@link CommandLog} of what every expected member had applied
 * {@link #TRIM_DELAY_INTERVALS} status intervals ago; while a member is absent or stale, only beyond
 * {@link ReplicationConfig#maxLogCommands()} per origin (that member then rejoins through a state transfer), and knows where the log of each origin starts
 * (what this member's reports announce, so that peers pull only what it still holds). Part of the
 * {@link AntiEntropy} round; see {@code docs/replication.md} and {@code docs/design-replication-recovery.md}.
 *
 * <p>Threads: the control thread only, but for {@link #knownLogFirst}, which any thread may call.
 */
final class LogTrimmer {
    private static final Logger log = LoggerFactory.getLogger(LogTrimmer.class);
    /**
     * Trim only what every member had applied 20 status intervals ago (10 s by default: a Redis restart
     * loses up to a second of writes, and its replica then fetches them again), every 10 intervals.
     */
    private static final int TRIM_DELAY_INTERVALS = 20;
    private static final int TRIM_EVERY_INTERVALS = 10;

    /** The per-origin minimum applied by every member, as computed at {@code nanos}. */
    private record Minimum(long nanos, Map<String, Long> applied) {
    }

    private final ReplicationConfig config;
    private final AppliedWatermarks watermarks;
    private final CommandLog commandLog;
    private final PeerReports reports;
    private final LongSupplier nanos;
    private final long trimDelayNanos;
    private final long trimEveryNanos;
    private final Map<String, Long> logFirst = new ConcurrentHashMap<>();
    // control thread only
    private final Deque<Minimum> minima = new ArrayDeque<>();
    private long lastTrimNanos;

    LogTrimmer(ReplicationConfig config, AppliedWatermarks watermarks, CommandLog commandLog, PeerReports reports,
               LongSupplier nanos) {
        this.config = config;
        this.watermarks = watermarks;
        this.commandLog = commandLog;
        this.reports = reports;
        this.nanos = nanos;
        this.trimDelayNanos = config.statusInterval().multipliedBy(TRIM_DELAY_INTERVALS).toNanos();
        this.trimEveryNanos = config.statusInterval().multipliedBy(TRIM_EVERY_INTERVALS).toNanos();
    }

    /** The first logged command of {@code of}, read once per origin (0 while the log holds none). */
    long knownLogFirst(String of) {
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

    /** The first logged command of {@code of} as last read or trimmed to; 0 when not known (reads no Redis; any thread). */
    long cachedLogFirst(String of) {
        return logFirst.getOrDefault(of, 0L);
    }

    /** After a snapshot replaced the state (and the log): read where each log starts again. */
    void forget() {
        logFirst.clear();
    }

    /** Trims the log of what every expected member had applied {@link #TRIM_DELAY_INTERVALS} status intervals ago. */
    void trimIfStable() {
        long now = nanos.getAsLong();
        if (now - lastTrimNanos < trimEveryNanos) {
            return;
        }
        lastTrimNanos = now;
        View current = reports.view();
        Map<Address, AppliedReport> fresh = reports.fresh(now);
        Set<String> replicas = new HashSet<>();
        replicas.add(config.replicaId());
        fresh.values().forEach(report -> replicas.add(report.replicaId()));
        if (current == null || current.size() < config.expectedMembers() || fresh.size() + 1 < current.size()
                || replicas.size() < config.expectedMembers()) {
            // somebody is missing: keep everything for it (a member counts once per replica id: with sender
            // authentication a second holder of one replica's key does not stand in for an absent replica), up to the bound
            minima.clear();
            trimBeyondBound(fresh.values());
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

    /**
     * While a member is absent or stale: trims each origin's log to its newest {@link ReplicationConfig#maxLogCommands()},
     * but never what a present member reported it still lacks. The absent member, once back, finds no log holding what it
     * lacks and takes a state transfer.
     */
    private void trimBeyondBound(Iterable<AppliedReport> present) {
        watermarks.snapshot().forEach((of, applied) -> {
            long through = applied - config.maxLogCommands();
            for (AppliedReport report : present) {
                through = Math.min(through, report.applied(of));
            }
            long first = knownLogFirst(of);
            if (first > 0 && through >= first) {
                log.info("replica {}: the log of {} holds more than {} commands while a member is absent: trimmed through {};"
                        + " a member that lacks them rejoins through a state transfer", config.replicaId(), of,
                        config.maxLogCommands(), through);
                commandLog.trimThrough(of, through);
                logFirst.put(of, through + 1);
            }
        });
    }
}
