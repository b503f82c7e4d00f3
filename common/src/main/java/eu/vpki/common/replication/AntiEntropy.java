package eu.vpki.common.replication;

import org.jgroups.Address;
import org.jgroups.View;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * The anti-entropy round that keeps one member's state complete: members report what they applied
 * ({@link AppliedReport}: a version vector plus what their command logs hold) every status interval
 * and after every view change; a member that lacks commands some peer applied fetches them from that
 * peer's log and hands them to its {@link Applier}. This one mechanism covers a command that reached
 * only some members (a crashed origin or sequencer), a member that was down, paused or cut off (after
 * the merge each side fetches what the other side applied), and a full restart (nobody's state is
 * replaced; the stalest member fetches what the others have). See {@code docs/replication.md} and
 * {@code docs/design-replication-recovery.md}.
 *
 * <p>Its one job is the round ({@link #tick()}): it composes the classes that do each part, namely
 * {@link PeerReports} (the peers' reports and this member's lease), {@link CommandFetcher} (pulling
 * what is missing, or a snapshot), {@link LogTrimmer} (trimming what every member applied) and
 * {@link ServingGate} (whether this member may serve, and why not).
 *
 * <p>Threads: reports arrive on JGroups threads ({@link #reportReceived}); {@link #tick()} and
 * {@link #evaluate()} run on the replica's control thread.
 */
final class AntiEntropy {

    /** How this member reaches its peers (implemented over the JGroups channel by {@link ChannelPeers}). */
    interface Peers {
        /** Sends this member's report to every member of the view. */
        void broadcast(byte[] report);

        /** Asks {@code peer} for commands of its log; completes with the encoded answer ({@link CommandCodec#COMMANDS}). */
        CompletableFuture<byte[]> pull(Address peer, byte[] request);

        /** Asks {@code provider} for a page of its state ({@link CommandCodec#SNAPSHOT_REQUEST}); completes with the page. */
        CompletableFuture<byte[]> snapshotPage(Address provider, byte[] request);
    }

    private final String origin;
    private final AppliedWatermarks watermarks;
    private final Peers peers;
    private final LongSupplier nanos;
    private final PeerReports reports;
    private final LogTrimmer trimmer;
    private final CommandFetcher fetcher;
    private final ServingGate gate;
    private final StateTransfer transfer;
    private final RedisStateMachine stateMachine;

    /**
     * @param stateMachine this member's Redis, which a state transfer replaces ({@link StateTransfer})
     * @param nanos        this member's monotonic clock ({@code System::nanoTime}; a fake one in tests)
     */
    AntiEntropy(ReplicationConfig config, String origin, Applier applier, AppliedWatermarks watermarks,
                CommandLog commandLog, RedisStateMachine stateMachine, Peers peers, ReplicationMetrics metrics,
                OriginAuthentication authentication, LongSupplier nanos) {
        this.nanos = nanos;
        this.origin = origin;
        this.watermarks = watermarks;
        this.peers = peers;
        this.reports = new PeerReports(config, origin, nanos);
        this.trimmer = new LogTrimmer(config, watermarks, commandLog, reports, nanos);
        this.gate = new ServingGate(config, applier, watermarks, reports, nanos);
        this.transfer = new StateTransfer(config, applier, watermarks, stateMachine, peers, metrics, gate::incomplete, nanos);
        this.fetcher = new CommandFetcher(config, applier, watermarks, peers, metrics, authentication, trimmer, transfer,
                this::transferEnded);
        this.stateMachine = stateMachine;
    }

    /**
     * After joining as {@code address}: not serving until caught up with a majority, unless this
     * member alone is a majority ({@link ServingGate#started()}).
     */
    void start(Address address, View initial) {
        reports.start(address, initial);
        gate.started();
        for (String of : watermarks.snapshot().keySet()) {
            trimmer.knownLogFirst(of);
        }
    }

    /**
     * A new view: reports of members that left are forgotten. After a merge this member serves again
     * only once it caught up with what a majority applied (the other side may have written meanwhile).
     */
    void viewChanged(View newView, boolean merge) {
        reports.viewChanged(newView);
        if (merge) {
            gate.merged();
        }
    }

    /** A report from {@code member} (JGroups thread): {@link PeerReports#received}. */
    void reportReceived(Address member, AppliedReport report) {
        reports.received(member, report);
    }

    /** Every status interval (control thread): report, fetch what is missing, trim the log. */
    void tick() {
        peers.broadcast(CommandCodec.encodeReport(report()));
        evaluate();
        trimmer.trimIfStable();
    }

    /**
     * This member's report, to be sent now: stamped with this member's clock (remembered, so that an
     * echo of it can be recognised) and echoing each peer's latest stamp.
     */
    AppliedReport report() {
        long stamp = reports.stamp();
        Map<String, Long> echoes = reports.echoes();
        Map<String, Long> applied = watermarks.snapshot();
        Map<String, Long> from = new HashMap<>();
        for (String of : applied.keySet()) {
            long first = trimmer.knownLogFirst(of);
            if (first > 0) {
                from.put(of, first);
            }
        }
        return new AppliedReport(CommandId.replicaIdOf(origin), origin, gate.serving(stamp), applied, from, stamp, echoes);
    }

    /** Compares with the latest reports: fetches what is missing, updates the lag and the sync state. */
    void evaluate() {
        long now = nanos.getAsLong();
        Map<Address, AppliedReport> fresh = reports.fresh(now);
        gate.laggingBehind(fetcher.fetchMissing(now, fresh));
        fetcher.snapshotIfNeeded(fresh);
        gate.afterRound(now);
    }

    /**
     * Whether this replica's state is complete ({@code why == null}) or why not: while it is incomplete it does not
     * serve ({@link ServingGate#incomplete(String)}) and takes a snapshot at the next round.
     */
    void stateIncomplete(String why) {
        gate.incomplete(why);
        if (why != null) {
            fetcher.needSnapshot();
        }
    }

    /**
     * A state transfer ended (on its thread): what Redis now says of the state decides whether this member is complete
     * or takes another snapshot ({@link #stateIncomplete}).
     */
    private void transferEnded() {
        String why;
        try {
            why = stateMachine.incompleteState().orElse(null);
        } catch (RuntimeException e) {
            why = "its Redis did not answer after a state transfer: " + e.getMessage();
        }
        stateIncomplete(why);
    }

    /** Stops a running state transfer (leaving the group). */
    void close() {
        transfer.close();
    }

    /** Whether this member may serve, and why not. */
    ServingGate gate() {
        return gate;
    }

    /** Whether a majority holds this member's lease at {@code now} ({@link PeerReports#leaseHolds}). */
    boolean leaseHolds(long now) {
        return reports.leaseHolds(now);
    }

    /** The latest report of each other member of the view and when it arrived ({@link PeerReports#heard}). */
    Map<Address, PeerReports.Heard> heard() {
        return reports.heard();
    }

    /** The current view (null before {@link #start}). */
    View view() {
        return reports.view();
    }

    /** The first sequence number of {@code of} still in this member's log as last read; 0 when unknown or none (reads no Redis). */
    long cachedLogFirst(String of) {
        return trimmer.cachedLogFirst(of);
    }

    /** Commands some member applied that this one has not (includes what is merely in flight). */
    long missing() {
        return fetcher.missing();
    }
}
