package eu.vpki.common.replication;

import org.jgroups.Address;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fetches what this member lacks: compares what it applied with the peers' fresh reports, pulls the
 * missing commands of each origin from a peer's log and hands them to its {@link Applier}, and, when
 * no peer's log holds them any more, replaces its state with a snapshot of a peer that holds
 * everything it holds ({@link StateTransfer}, page by page, on a thread of its own). Part of the {@link AntiEntropy} round;
 * see {@code docs/replication.md} and {@code docs/design-replication-recovery.md}.
 *
 * <p>Threads: {@link #fetchMissing} runs on the replica's control thread, pull answers complete on
 * JGroups threads; {@link #missing()} is read by any thread.
 */
final class CommandFetcher {
    private static final Logger log = LoggerFactory.getLogger(CommandFetcher.class);
    /** Commands per pull, and about the bytes per pull. */
    static final int PULL_COMMANDS = 512;
    static final long PULL_BYTES = 4L * 1024 * 1024;
    /** How far fetched commands may run ahead of what the applier applied. */
    private static final int PULL_AHEAD = 8 * PULL_COMMANDS;

    /** A level of an origin a peer had reached when this member first saw it was below it. */
    private record Behind(long level, long sinceNanos) {
    }

    private final ReplicationConfig config;
    private final Applier applier;
    private final AppliedWatermarks watermarks;
    private final AntiEntropy.Peers peers;
    private final ReplicationMetrics metrics;
    private final OriginAuthentication authentication;
    private final LogTrimmer trimmer;
    private final StateTransfer transfer;
    private final Runnable transferEnded;
    private final long leaseNanos;
    private final long pullDelayNanos;
    /** Per origin, the last sequence number fetched from a peer and handed to the applier. */
    private final Map<String, Long> fetched = new ConcurrentHashMap<>();
    private final Set<String> pulling = ConcurrentHashMap.newKeySet();
    private volatile long missing;
    private volatile boolean snapshotNeeded;
    // control thread only
    private final Map<String, Behind> behindReceived = new HashMap<>();
    private final Map<String, Behind> behindApplied = new HashMap<>();

    CommandFetcher(ReplicationConfig config, Applier applier, AppliedWatermarks watermarks, AntiEntropy.Peers peers,
                   ReplicationMetrics metrics, OriginAuthentication authentication, LogTrimmer trimmer,
                   StateTransfer transfer, Runnable transferEnded) {
        this.config = config;
        this.applier = applier;
        this.watermarks = watermarks;
        this.peers = peers;
        this.metrics = metrics;
        this.authentication = authentication;
        this.trimmer = trimmer;
        this.transfer = transfer;
        this.transferEnded = transferEnded;
        this.leaseNanos = config.lease().toNanos();
        this.pullDelayNanos = config.statusInterval().toNanos();
    }

    /**
     * Compares with the {@code fresh} reports at {@code now}: pulls what is missing, notes whether a
     * snapshot is needed ({@link #snapshotIfNeeded}) and updates {@link #missing()}.
     *
     * @return whether this member is lagging: something a peer applied has been missing here longer than the lease
     */
    boolean fetchMissing(long now, Map<Address, AppliedReport> fresh) {
        if (transfer.running()) {
            return false; // the applier drops what it is given until the transfer is installed
        }
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
            // delivered or fetched, but not what the applier dropped (its hold-back was full): that is fetched again
            long have = Math.min(Math.max(Math.max(applied, applier.received(of)), fetched.getOrDefault(of, 0L)),
                    Math.max(applied, applier.fetchableFrom(of) - 1));
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
        return behindApplied.values().stream().anyMatch(behind -> now - behind.sinceNanos() > leaseNanos);
    }

    /**
     * This replica's state is incomplete (an interrupted state transfer, {@link RedisStateMachine#incompleteState()}):
     * no log can complete it, a snapshot must replace it.
     */
    void needSnapshot() {
        snapshotNeeded = true;
    }

    /** If a pull found commands no peer's log holds any more, or the state is incomplete: starts a state transfer. */
    void snapshotIfNeeded(Map<Address, AppliedReport> fresh) {
        if (snapshotNeeded && !transfer.running()) {
            snapshot(fresh);
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

    /**
     * Pulls {@code of}'s commands {@code from..upTo} from a peer's log, {@link #PULL_COMMANDS} at a time: one pull per origin
     * in flight, and as soon as one is answered the next follows, as long as what was fetched runs at most
     * {@link #PULL_AHEAD} commands ahead of what the applier applied (beyond that the next round resumes). So a member
     * that was down catches up at the rate its applier applies, not at a pull per round.
     */
    private void pull(String of, long from, long upTo, Map<Address, AppliedReport> fresh) {
        if (from > upTo || !pulling.add(of)) {
            return;
        }
        long to = Math.min(upTo, from + PULL_COMMANDS - 1);
        Address peer = servingPeer(of, from, fresh);
        if (peer == null) {
            pulling.remove(of);
            if (fresh.values().stream().anyMatch(report -> report.applied(of) >= from)) {
                if (!snapshotNeeded) {
                    log.warn("replica {} lacks commands {}..{} of {} that no peer's log holds any more: taking a snapshot",
                            config.replicaId(), from, to, of);
                }
                snapshotNeeded = true;
            }
            return;
        }
        byte[] request = CommandCodec.encodePull(new CommandCodec.Pull(of, from, to));
        peers.pull(peer, request).whenComplete((answer, error) -> {
            long next = -1;
            try {
                if (error != null || answer == null) {
                    log.debug("pull of {} {}..{} from {} failed: {}", of, from, to, peer, String.valueOf(error));
                    return;
                }
                List<Command> answered = CommandCodec.decodeCommands(answer);
                List<Command> commands = authentic(contiguous(answered, of, from, to), peer);
                if (commands.isEmpty()) {
                    log.debug("pull of {} {}..{} from {} answered {} command(s), none of them {}", of, from, to, peer,
                            answered.size(), from);
                    return;
                }
                if (commands.size() < answered.size()) {
                    log.warn("pull of {} {}..{} from {}: kept {} of the {} command(s) answered, up to {} (the rest is not the"
                            + " run that follows it); what is left is asked for again", of, from, to, peer, commands.size(),
                            answered.size(), commands.get(commands.size() - 1).id());
                }
                long last = commands.get(commands.size() - 1).id().seq();
                fetched.merge(of, last, Math::max);
                applier.recover(commands);
                metrics.recovered(commands.size());
                log.debug("replica {} fetched {} command(s) of {} ({}..{}) from {}", config.replicaId(), commands.size(),
                        of, from, last, peer);
                if (last == to && to < upTo && last - watermarks.appliedSeq(of) < PULL_AHEAD && !transfer.running()) {
                    next = last + 1;
                }
            } catch (RuntimeException e) {
                log.warn("unusable answer to a pull of {} from {}: {}", of, peer, e.toString());
            } finally {
                pulling.remove(of);
            }
            if (next > 0) {
                pull(of, next, upTo, fresh);
            }
        });
    }

    /**
     * The run of {@code answered} that a pull of {@code of}'s {@code from..to} asked for: the commands of that origin
     * numbered {@code from}, {@code from + 1}, ... without a hole, up to {@code to}, and nothing after the first that
     * breaks the run. The mark of what was fetched is the run's end, so a hole in an answer (a peer's log with a hole,
     * a faulty or hostile peer) is asked for again at the next round rather than passed over for good.
     */
    static List<Command> contiguous(List<Command> answered, String of, long from, long to) {
        int n = 0;
        while (n < answered.size() && from + n <= to && answered.get(n).id().origin().equals(of)
                && answered.get(n).id().seq() == from + n) {
            n++;
        }
        return answered.subList(0, n);
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

    /**
     * Starts replacing this member's state with a peer's that holds everything this member holds (a serving one first):
     * {@link StateTransfer}. When it ends, what was fetched and what the log held are forgotten (the state and the log
     * were replaced), and {@code transferEnded} decides from Redis whether the state is complete or another transfer is
     * needed.
     */
    private void snapshot(Map<Address, AppliedReport> fresh) {
        Map<String, Long> mine = watermarks.snapshot();
        Map.Entry<Address, AppliedReport> chosen = null;
        for (Map.Entry<Address, AppliedReport> entry : fresh.entrySet()) {
            AppliedReport report = entry.getValue();
            if (dominates(report.applied(), mine) && (chosen == null || report.serving() && !chosen.getValue().serving())) {
                chosen = entry;
            }
        }
        if (chosen == null) {
            log.info("replica {} waits for a peer that holds everything it holds before taking a snapshot", config.replicaId());
            return;
        }
        log.warn("replica {} replaces its state with {}'s, page by page", config.replicaId(), chosen.getValue().replicaId());
        // cleared before: a transfer that leaves the state incomplete asks for another one (transferEnded, needSnapshot)
        snapshotNeeded = false;
        transfer.start(chosen.getKey(), chosen.getValue().replicaId(), complete -> {
            fetched.clear();
            trimmer.forget();
            transferEnded.run();
        });
    }

    private static boolean dominates(Map<String, Long> theirs, Map<String, Long> mine) {
        for (Map.Entry<String, Long> entry : mine.entrySet()) {
            if (theirs.getOrDefault(entry.getKey(), 0L) < entry.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Commands some member applied that this one has not (includes what is merely in flight). */
    long missing() {
        return missing;
    }
}
