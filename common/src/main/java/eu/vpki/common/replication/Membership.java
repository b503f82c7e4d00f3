package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.MergeView;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.SuspectedException;
import org.jgroups.UnreachableException;
import org.jgroups.View;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.RequestHandler;
import org.jgroups.blocks.RequestOptions;
import org.jgroups.blocks.Response;
import org.jgroups.blocks.ResponseMode;
import org.jgroups.util.Rsp;
import org.jgroups.util.RspList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.InputStream;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One incarnation of a replica in the group, from joining to leaving: the JGroups channel, the
 * applier, the anti-entropy, and the origin ({@link CommandId}) that numbers this incarnation's
 * commands from 1. A replica whose Redis failed leaves and later joins again as a new membership
 * (new origin), so nothing of a half-failed incarnation is reused.
 *
 * <p>Joining fetches no state: the replica keeps its own Redis (state, applied table, command log)
 * and the anti-entropy fetches from peers' logs what it lacks, while peers fetch from its log what
 * they lack. Threads: JGroups threads decode and enqueue; the submitting thread numbers and sends
 * under {@link #sendLock}; pulls are served on the replica's server thread.
 */
final class Membership implements AntiEntropy.Peers, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Membership.class);

    private final ReplicationConfig config;
    private final RedisStateMachine stateMachine;
    private final CommandLog commandLog;
    private final Clock clock;
    private final ReplicationMetrics metrics;
    private final OriginAuthentication origins;
    private final SenderAuthentication senders;
    private final Executor server;
    private final Runnable onViewChange;
    private final String origin;
    private final AppliedWatermarks watermarks = new AppliedWatermarks();
    private final Applier applier;
    private final AntiEntropy antiEntropy;
    private final AtomicLong lastSeq = new AtomicLong();
    /** What this membership signed and sent, so that it need not verify its own signature when they come back. */
    private final SentCommands sent;
    /** This replica's receiver id in the tags of other origins' commands ({@link ReceiverTags}); null without credentials. */
    private final byte[] ownTagId;
    /**
     * This membership's confirmation of its own SYNC commands to itself, in place of a sealed answer: a random value
     * that never leaves this JVM (JGroups loops a reply to its own address back without sending it), so that only
     * this membership can present it; see {@link #ownConfirmation}.
     */
    private final byte[] selfConfirmation = new byte[32];
    private final Object sendLock = new Object();
    private volatile View view;
    private volatile boolean closed;
    private JChannel channel;
    private MessageDispatcher dispatcher;

    /**
     * @param server       runs pulls that peers ask for (Redis reads)
     * @param onViewChange called (on a JGroups thread) after each view change
     * @param onFailure    called on the applier thread when this replica's Redis failed
     */
    Membership(ReplicationConfig config, String origin, RedisStateMachine stateMachine, CommandLog commandLog, Clock clock,
               ReplicationMetrics metrics, OriginAuthentication origins, SenderAuthentication senders, Executor server,
               Runnable onViewChange, Consumer<RuntimeException> onFailure) {
        this.config = config;
        this.origin = origin;
        this.stateMachine = stateMachine;
        this.commandLog = commandLog;
        this.clock = clock;
        this.metrics = metrics;
        this.origins = origins;
        this.senders = senders;
        this.server = server;
        this.onViewChange = onViewChange;
        this.sent = new SentCommands(origin);
        this.ownTagId = origins.tagId();
        new SecureRandom().nextBytes(selfConfirmation);
        this.applier = new Applier(origin, config.effectiveApplyGrouping(), stateMachine, watermarks, metrics, clock, onFailure);
        this.antiEntropy = new AntiEntropy(config, origin, applier, watermarks, commandLog, this, metrics, origins, System::nanoTime);
    }

    /** Joins the group with what this replica's Redis holds; blocks until joined. */
    void join() throws Exception {
        watermarks.advanceAll(stateMachine.appliedSeqs());
        channel = new JChannel(JGroupsStack.configure(config)).name(config.replicaId());
        dispatcher = new MessageDispatcher(channel, new Handler()).setReceiver(new Membership.Views()).asyncDispatching(true);
        channel.connect(config.clusterName());
        senders.start(channel.getAddress());
        antiEntropy.start(channel.getAddress(), channel.getView());
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

    int viewSize() {
        View current = view;
        return closed || current == null ? 0 : current.size();
    }

    /**
     * Numbers, encodes and broadcasts, under {@link #sendLock}: one origin's sequence numbers must reach
     * JGroups in order (SEQUENCER and NAKACK2 keep the order they are handed). {@code refusal} is checked
     * again under the lock. If JGroups refuses the message, the number is spent and nobody holds that
     * command, so every later command of this origin would wait for it forever: this membership then
     * fails (via {@code failed}) and the replica rejoins as a new origin.
     */
    void send(List<Operation> operations, CompletableFuture<Acknowledgement> result, Executor completer,
              Supplier<ReplicationException> refusal, Consumer<RuntimeException> failed) {
        synchronized (sendLock) {
            ReplicationException refused = refusal.get();
            if (refused != null) {
                completeExceptionally(result, refused, completer);
                return;
            }
            Command command = origins.sign(new Command(new CommandId(origin, lastSeq.incrementAndGet()), clock.millis(), operations));
            byte[] encoded = CommandCodec.encode(command);
            if (origins.acceptsOwn(command)) {
                sent.sent(command.id(), encoded); // before the cast: JGroups may deliver it back on this thread
            }
            try {
                cast(command, origins.tagged(encoded, senders.peerCertificates()), result, completer);
            } catch (Exception e) {
                completeExceptionally(result, outcomeUnknown(command, e), completer);
                failed.accept(new ReplicationException(ErrorCode.NOT_CONNECTED,
                        "could not send " + command.id() + "; rejoining as a new origin", e));
            }
        }
    }

    private void cast(Command command, byte[] encoded, CompletableFuture<Acknowledgement> result, Executor completer) throws Exception {
        Message message = new BytesMessage(null, encoded);
        long timeoutMillis = config.timeouts().reply().toMillis();
        if (config.propagation() == ReplicationConfig.Propagation.SYNC) {
            RequestOptions options = new RequestOptions(ResponseMode.GET_ALL, phaseTimeoutMillis());
            dispatcher.<Object>castMessageWithFuture(null, message, options)
                    .orTimeout(phaseTimeoutMillis(), TimeUnit.MILLISECONDS)
                    .whenComplete((responses, error) -> completeSync(result, command, responses, error, completer));
        } else {
            CompletableFuture<Void> appliedHere = watermarks.whenApplied(command.id());
            dispatcher.castMessage(null, message, new RequestOptions(ResponseMode.GET_NONE, timeoutMillis));
            appliedHere.orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((done, error) -> {
                if (error == null) {
                    complete(result, new Acknowledgement(command.id(), 1), completer);
                } else {
                    completeExceptionally(result, outcomeUnknown(command, error), completer);
                }
            });
        }
    }

    /**
     * Phase 1 answers (GET_ALL) are in {@code responses}, or {@code error} if they did not all arrive in
     * half the reply timeout. A member answers {@code true} once it applied the command, or {@code false}
     * at once if it holds the command back because it lacks an earlier one of this origin (it is
     * catching up and serves nothing meanwhile). Members that did not confirm and are still in the view
     * are asked directly whether they applied it (phase 2). The acknowledgement needs a majority of the
     * expected members.
     */
    private void completeSync(CompletableFuture<Acknowledgement> result, Command command,
                              RspList<Object> responses, Throwable error, Executor completer) {
        Set<String> confirmed = new HashSet<>();
        List<Address> unconfirmed = new ArrayList<>();
        if (error != null) {
            if (!(unwrap(error) instanceof TimeoutException)) {
                completeExceptionally(result, outcomeUnknown(command, error), completer);
                return;
            }
            View current = view;
            if (current != null) {
                unconfirmed.addAll(current.getMembers());
            }
        } else {
            for (Map.Entry<Address, Rsp<Object>> entry : responses.entrySet()) {
                Rsp<Object> response = entry.getValue();
                if (response.hasException()) {
                    if (entry.getKey().equals(channel.getAddress())) {
                        completeExceptionally(result, new ReplicationException(ErrorCode.APPLY_FAILED,
                                command.id() + " could not be applied here", response.getException()), completer);
                        return;
                    }
                    // that member's Redis failed: it leaves the group and rejoins once its Redis answers
                    log.warn("{} failed to apply {}: {}", entry.getKey(), command.id(), response.getException().toString());
                } else {
                    String replica = response.wasReceived() ? confirmedBy(entry.getKey(), response.getValue(), command.id()) : null;
                    if (replica != null) {
                        confirmed.add(replica);
                    } else if (response.wasReceived() || (!response.wasSuspected() && !response.wasUnreachable())) {
                        unconfirmed.add(entry.getKey());
                    }
                }
            }
        }
        if (unconfirmed.isEmpty()) {
            acknowledgeIfMajority(result, command, confirmed.size(), completer);
            return;
        }
        confirmApplied(command.id(), unconfirmed).whenComplete((more, failure) -> {
            if (failure != null) {
                completeExceptionally(result, outcomeUnknown(command, failure), completer);
            } else {
                confirmed.addAll(more);
                acknowledgeIfMajority(result, command, confirmed.size(), completer);
            }
        });
    }

    /**
     * The replica that {@code answer}, received from {@code member}, says applied {@code id}, or null if it does not
     * say so, or is refused ({@link SenderAuthentication}: not signed by a replica from that address). Confirmations
     * are counted by replica, so one replica's key confirms once, whichever addresses its answers come from.
     */
    private String confirmedBy(Address member, Object answer, CommandId id) {
        if (!(answer instanceof byte[] bytes)) {
            return null;
        }
        if (ownConfirmation(member, channel.getAddress(), bytes, selfConfirmation)) {
            return config.replicaId();
        }
        try {
            SenderAuthentication.Opened opened = senders.open(bytes, member);
            CommandCodec.AppliedAnswer applied = CommandCodec.decodeAppliedAnswer(opened.message());
            return applied.applied() && applied.id().equals(id) ? opened.sender() : null;
        } catch (SenderAuthentication.Refused refused) {
            metrics.refused("sender");
            log.warn("refused the confirmation of {} from {}: {}", id, member, refused.getMessage());
            return null;
        } catch (PkiException malformed) {
            metrics.refused("malformed");
            log.warn("refused a malformed confirmation of {} from {}: {}", id, member, malformed.getMessage());
            return null;
        }
    }

    /**
     * Whether {@code answer}, received from {@code member}, is this membership's confirmation of its own command to
     * itself: it comes from this membership's own address and is its {@code selfConfirmation}, which no other member
     * ever received. Compared in constant time.
     */
    static boolean ownConfirmation(Address member, Address self, byte[] answer, byte[] selfConfirmation) {
        return member != null && member.equals(self) && MessageDigest.isEqual(answer, selfConfirmation);
    }

    private void acknowledgeIfMajority(CompletableFuture<Acknowledgement> result, Command command, int confirmed,
                                       Executor completer) {
        if (config.isMajority(confirmed)) {
            complete(result, new Acknowledgement(command.id(), confirmed), completer);
        } else {
            completeExceptionally(result, new ReplicationException(ErrorCode.TIMEOUT_OUTCOME_UNKNOWN,
                    command.id() + " confirmed by only " + confirmed + " of " + config.expectedMembers()
                            + " expected members"), completer);
        }
    }

    /** Asks each of {@code members} whether it applied {@code id}; completes with the replicas that did (members gone: none). */
    private CompletableFuture<Set<String>> confirmApplied(CommandId id, List<Address> members) {
        RequestOptions options = new RequestOptions(ResponseMode.GET_FIRST, phaseTimeoutMillis());
        List<CompletableFuture<String>> answers = new ArrayList<>(members.size());
        for (Address member : members) {
            try {
                CompletableFuture<Object> answer = dispatcher.sendMessageWithFuture(
                        new BytesMessage(member, senders.seal(CommandCodec.encodeAppliedQuery(id))), options);
                answers.add(answer.orTimeout(phaseTimeoutMillis(), TimeUnit.MILLISECONDS).handle((applied, failure) -> {
                    if (failure == null) {
                        return confirmedBy(member, applied, id);
                    }
                    Throwable cause = unwrap(failure);
                    // gone, or did not apply it within the phase: not confirmed (the outcome there is unknown)
                    if (cause instanceof SuspectedException || cause instanceof UnreachableException
                            || cause instanceof TimeoutException) {
                        return null;
                    }
                    throw new CompletionException(cause);
                }));
            } catch (Exception e) {
                answers.add(CompletableFuture.completedFuture(null));
            }
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Set<String> replicas = new HashSet<>();
            answers.forEach(answer -> {
                String replica = answer.join();
                if (replica != null) {
                    replicas.add(replica);
                }
            });
            return replicas;
        });
    }

    private long phaseTimeoutMillis() {
        return Math.max(1, config.timeouts().reply().toMillis() / 2);
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private ReplicationException outcomeUnknown(Command command, Throwable cause) {
        Throwable root = unwrap(cause);
        if (root instanceof ReplicationException replication) {
            return replication;
        }
        return new ReplicationException(ErrorCode.TIMEOUT_OUTCOME_UNKNOWN,
                command.id() + " not confirmed within " + config.timeouts().reply() + "; retry idempotently", root);
    }

    static void complete(CompletableFuture<Acknowledgement> result, Acknowledgement ack, Executor completer) {
        try {
            completer.execute(() -> result.complete(ack));
        } catch (RejectedExecutionException e) {
            result.complete(ack);
        }
    }

    static void completeExceptionally(CompletableFuture<Acknowledgement> result, ReplicationException error,
                                      Executor completer) {
        try {
            completer.execute(() -> result.completeExceptionally(error));
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(error);
        }
    }

    @Override
    public void broadcast(byte[] report) {
        if (closed) {
            return;
        }
        try {
            dispatcher.castMessage(null, new BytesMessage(null, senders.seal(report)),
                    new RequestOptions(ResponseMode.GET_NONE, 0).flags(Message.Flag.OOB));
        } catch (Exception e) {
            log.debug("report not sent: {}", e.toString());
        }
    }

    /** The answer {@code peer} signed (its command list), or failed if it is refused ({@link SenderAuthentication}). */
    @Override
    public CompletableFuture<byte[]> pull(Address peer, byte[] request) {
        try {
            return dispatcher.<byte[]>sendMessageWithFuture(new BytesMessage(peer, senders.seal(request)),
                            new RequestOptions(ResponseMode.GET_FIRST, config.timeouts().reply().toMillis()).flags(Message.Flag.OOB))
                    .orTimeout(config.timeouts().reply().toMillis(), TimeUnit.MILLISECONDS)
                    .thenApply(answer -> {
                        try {
                            return senders.open(answer, peer).message();
                        } catch (SenderAuthentication.Refused refused) {
                            metrics.refused("sender");
                            log.warn("refused the answer to a pull from {}: {}", peer, refused.getMessage());
                            throw refused;
                        }
                    });
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void fetchState(Address provider) throws Exception {
        channel.getState(provider, config.timeouts().stateTransfer().toMillis());
    }

    /** Leaves the group and stops the applier; waiting readers fail with {@code cause}. Idempotent. */
    void close(RuntimeException cause) {
        closed = true;
        if (dispatcher != null) {
            dispatcher.stop();
        }
        if (channel != null) {
            channel.close();
        }
        applier.stop();
        watermarks.failAll(cause);
    }

    @Override
    public void close() {
        close(new ReplicationException(ErrorCode.NOT_CONNECTED, "replica " + config.replicaId() + " closed"));
    }

    /** Decodes delivered messages and hands them on; never blocks. */
    private final class Handler implements RequestHandler {
        @Override
        public Object handle(Message message) {
            accept(message, null);
            return null;
        }

        @Override
        public void handle(Message message, Response response) {
            accept(message, response);
        }

        private void accept(Message message, Response response) {
            try {
                dispatch(message, response);
            } catch (PkiException malformed) {
                // refused and logged; nothing is applied or answered (the sender times out)
                metrics.refused("malformed");
                log.warn("refused a malformed message from {}: {}", message.getSrc(), malformed.getMessage());
            } catch (SenderAuthentication.Refused refused) {
                // not sent by the replica it claims (or not signed at all): the same
                metrics.refused("sender");
                log.warn("refused a message from {}: {}", message.getSrc(), refused.getMessage());
            }
        }

        private void dispatch(Message message, Response response) {
            byte[] payload = message.getArray();
            Address source = message.getSrc();
            byte[] tag = null;
            if (CommandCodec.kind(payload) == CommandCodec.TAGGED) { // a command with its origin's tags for its receivers
                CommandCodec.Tagged tagged = CommandCodec.decodeTagged(payload);
                payload = tagged.command();
                tag = tagged.tagFor(ownTagId);
            }
            if (CommandCodec.kind(payload) == CommandCodec.FORMAT_VERSION) {
                Command command = CommandCodec.decode(payload);
                // this membership's own command, from its own address: it answers itself without a seal
                boolean toItself = command.id().origin().equals(origin) && source != null && source.equals(channel.getAddress());
                deliver(command, payload, tag, source, response == null ? null : new SealedAnswer(response, command.id(), toItself));
                return;
            }
            SenderAuthentication.Opened opened = senders.open(payload, source);
            byte[] inner = opened.message();
            switch (CommandCodec.kind(inner)) {
                case CommandCodec.APPLIED_QUERY -> {
                    if (response != null) {
                        CommandId id = CommandCodec.decodeAppliedQuery(inner);
                        watermarks.whenApplied(id).orTimeout(phaseTimeoutMillis(), TimeUnit.MILLISECONDS)
                                .whenComplete((applied, failure) -> response.send(senders.seal(CommandCodec.encodeAppliedAnswer(
                                        new CommandCodec.AppliedAnswer(id, failure == null))), false));
                    }
                }
                case CommandCodec.REPORT -> {
                    AppliedReport report = CommandCodec.decodeReport(inner);
                    if (senders.enabled() && (!report.replicaId().equals(opened.sender())
                            || !CommandId.replicaIdOf(report.origin()).equals(opened.sender()))) {
                        throw new SenderAuthentication.Refused("a report of " + report.replicaId() + " (origin " + report.origin()
                                + ") signed by " + opened.sender());
                    }
                    antiEntropy.reportReceived(source, report);
                }
                case CommandCodec.PULL -> {
                    if (response != null) {
                        servePull(CommandCodec.decodePull(inner), response);
                    }
                }
                default -> log.warn("ignored a message of kind {} from {}", CommandCodec.kind(inner), source);
            }
        }
    }

    /**
     * What this replica answers to a delivered SYNC command (from the applier: applied, held back, or the
     * failure): whether it applied it, sealed ({@link SenderAuthentication}), so that nobody else can confirm it
     * in this replica's name. A failure goes back as it is (it confirms nothing). Its own command, delivered from
     * its own address, it confirms to itself with {@link #selfConfirmation} instead: the reply goes to that address,
     * this membership, and is never sent.
     */
    private final class SealedAnswer implements Response {
        private final Response response;
        private final CommandId id;
        private final boolean toItself;

        SealedAnswer(Response response, CommandId id, boolean toItself) {
            this.response = response;
            this.id = id;
            this.toItself = toItself;
        }

        @Override
        public void send(Object reply, boolean isException) {
            if (isException) {
                response.send(reply, true);
            } else if (toItself && Boolean.TRUE.equals(reply)) {
                response.send(selfConfirmation, false);
            } else {
                response.send(senders.seal(CommandCodec.encodeAppliedAnswer(
                        new CommandCodec.AppliedAnswer(id, Boolean.TRUE.equals(reply)))), false);
            }
        }

        @Override
        public void send(Message reply, boolean isException) {
            response.send(reply, isException);
        }
    }

    /**
     * A command JGroups delivered ({@code received}: its bytes, {@code tag}: its origin's tag for this replica, or null):
     * to the applier, unless its origin did not issue it ({@link OriginAuthentication}): then it is refused, logged and
     * counted, and not answered. One this membership sent, come back byte for byte, is not checked again
     * ({@link SentCommands}).
     */
    private void deliver(Command command, byte[] received, byte[] tag, Address sender, Response response) {
        String refusal = sent.cameBack(command, received) ? null : origins.refusal(command, received, tag);
        if (refusal != null) {
            metrics.refused("direct");
            log.warn("refused command {} delivered by {}: {}", command.id(), sender, refusal);
            return;
        }
        applier.deliver(command, response);
    }

    private void servePull(CommandCodec.Pull pull, Response response) {
        try {
            server.execute(() -> {
                try {
                    List<byte[]> commands = commandLog.read(pull.origin(), pull.from(), pull.to(),
                            AntiEntropy.PULL_COMMANDS, AntiEntropy.PULL_BYTES);
                    response.send(senders.seal(CommandCodec.encodeCommands(commands)), false);
                } catch (RuntimeException e) {
                    response.send(e, true);
                }
            });
        } catch (RejectedExecutionException e) {
            response.send(e, true);
        }
    }

    /** Views and snapshots. */
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

        @Override
        public void getState(OutputStream output) throws Exception {
            applier.whilePaused(config.timeouts().stateTransfer(), false, () -> stateMachine.writeSnapshot(output));
        }

        @Override
        public void setState(InputStream input) throws Exception {
            applier.whilePaused(config.timeouts().stateTransfer(), true, () -> stateMachine.restore(input));
        }
    }
}
