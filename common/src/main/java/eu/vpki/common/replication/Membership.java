package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import org.jgroups.JChannel;
import org.jgroups.MergeView;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.blocks.MessageDispatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One incarnation of a replica in the group, from joining to leaving: it owns the JGroups channel,
 * follows its views and serves and takes snapshots, and wires the parts that do the rest: the
 * {@link CommandSender} (numbering and acknowledging this incarnation's commands), the
 * {@link MessageHandler} (what is delivered), the {@link Applier} and the {@link AntiEntropy} (over
 * {@link ChannelPeers}). The origin ({@link CommandId}) numbers this incarnation's commands from 1. A
 * replica whose Redis failed leaves and later joins again as a new membership (new origin), so nothing
 * of a half-failed incarnation is reused. See {@code docs/replication.md}.
 *
 * <p>Joining fetches no state: the replica keeps its own Redis (state, applied table, command log)
 * and the anti-entropy fetches from peers' logs what it lacks, while peers fetch from its log what
 * they lack. Threads: JGroups threads decode and enqueue; the submitting thread numbers and sends;
 * pulls are served on the replica's server thread.
 */
final class Membership implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Membership.class);

    private final ReplicationConfig config;
    private final RedisStateMachine stateMachine;
    private final SenderAuthentication senders;
    private final Runnable onViewChange;
    private final String origin;
    private final AppliedWatermarks watermarks = new AppliedWatermarks();
    private final Applier applier;
    private final AntiEntropy antiEntropy;
    private final CommandSender sender;
    private final JChannel channel;
    private final MessageDispatcher dispatcher;
    private volatile View view;
    private volatile boolean closed;

    /**
     * @param server       runs pulls that peers ask for (Redis reads)
     * @param onViewChange called (on a JGroups thread) after each view change
     * @param onFailure    called on the applier thread when this replica's Redis failed
     */
    Membership(ReplicationConfig config, String origin, RedisStateMachine stateMachine, CommandLog commandLog, Clock clock,
               ReplicationMetrics metrics, OriginAuthentication origins, SenderAuthentication senders, Executor server,
               Runnable onViewChange, Consumer<RuntimeException> onFailure)
            throws Exception {
        this.config = config;
        this.origin = origin;
        this.stateMachine = stateMachine;
        this.senders = senders;
        this.onViewChange = onViewChange;
        this.channel = new JChannel(JGroupsStack.configure(config)).name(config.replicaId());
        this.dispatcher = new MessageDispatcher(channel);
        this.sender = new CommandSender(config, origin, clock, metrics, origins, senders, watermarks, channel, dispatcher,
                () -> view);
        this.applier = new Applier(origin, config.effectiveApplyGrouping(), stateMachine, watermarks, metrics, clock, onFailure);
        this.antiEntropy = new AntiEntropy(config, origin, applier, watermarks, commandLog, stateMachine,
                new ChannelPeers(config, metrics, senders, channel, dispatcher, () -> closed), metrics, origins, System::nanoTime);
        dispatcher.setRequestHandler(new MessageHandler(config, origin, commandLog, stateMachine, metrics, origins, senders,
                server, watermarks, applier, antiEntropy, sender, channel));
        dispatcher.setReceiver(new Views());
        dispatcher.asyncDispatching(true);
    }

    /** Joins the group with what this replica's Redis holds; blocks until joined. */
    void join() throws Exception {
        watermarks.advanceAll(stateMachine.appliedSeqs());
        channel.connect(config.clusterName());
        senders.start(channel.getAddress());
        antiEntropy.start(channel.getAddress(), channel.getView());
        // a state transfer that did not finish (this replica or its Redis crashed, or it timed out) left part of a state
        antiEntropy.stateIncomplete(stateMachine.incompleteState().orElse(null));
        applier.start();
    }

    String origin() {
        return origin;
    }

    AppliedWatermarks watermarks() {
        return watermarks;
    }

    Applier applier() {
        return applier;
    }

    AntiEntropy antiEntropy() {
        return antiEntropy;
    }

    JChannel channel() {
        return channel;
    }

    /** The current view; null before the first or after closing. */
    View view() {
        return closed ? null : view;
    }

    int viewSize() {
        View current = view;
        return closed || current == null ? 0 : current.size();
    }

    /** Numbers, signs and broadcasts a command of this incarnation: {@link CommandSender#send}. */
    void send(List<Operation> operations, CompletableFuture<Acknowledgement> result, Executor completer,
              Supplier<ReplicationException> refusal, Consumer<RuntimeException> failed) {
        sender.send(operations, result, completer, refusal, failed);
    }

    /** Leaves the group and stops the applier; waiting readers fail with {@code cause}. Idempotent. */
    void close(RuntimeException cause) {
        closed = true;
        antiEntropy.close();
        dispatcher.stop();
        channel.close();
        applier.stop();
        watermarks.failAll(cause);
    }

    @Override
    public void close() {
        close(new ReplicationException(ErrorCode.NOT_CONNECTED, "replica " + config.replicaId() + " closed"));
    }

    /** Views. */
    private final class Views implements Receiver {
        @Override
        public void viewAccepted(View newView) {
            View previous = view;
            view = newView;
            boolean merge = newView instanceof MergeView;
            // "replica <id> view <view>" first: tools (the fault harness) read the view from this line
            log.info("replica {} view {} (origin {}{})", config.replicaId(), newView, origin, merge ? ", merge" : "");
            senders.viewChanged(newView);
            antiEntropy.viewChanged(newView, merge);
            if (previous != null) {
                onViewChange.run();
            }
        }
    }
}
