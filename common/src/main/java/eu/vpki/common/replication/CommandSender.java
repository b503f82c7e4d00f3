package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.SuspectedException;
import org.jgroups.UnreachableException;
import org.jgroups.View;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.RequestOptions;
import org.jgroups.blocks.ResponseMode;
import org.jgroups.util.Rsp;
import org.jgroups.util.RspList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * Sends this incarnation's commands and acknowledges them: numbers each command of its origin, signs
 * and broadcasts it, and completes the submitter's future once a majority of the expected members
 * confirmed it (SYNC: phase 1 answers, then a direct question to members that did not answer) or this
 * replica applied it (ASYNC). See {@code docs/replication.md} ("Order and propagation modes") and
 * {@code docs/design-replication-security.md} (sealed confirmations).
 *
 * <p>Threads: the submitting thread numbers and sends under {@link #sendLock}; completions run on
 * JGroups threads and are handed to the replica's completion executor.
 */
final class CommandSender {

    private static final Logger log = LoggerFactory.getLogger(CommandSender.class);

    private final ReplicationConfig config;
    private final String origin;
    private final Clock clock;
    private final ReplicationMetrics metrics;
    private final OriginAuthentication origins;
    private final SenderAuthentication senders;
    private final AppliedWatermarks watermarks;
    private final JChannel channel;
    private final MessageDispatcher dispatcher;
    private final Supplier<View> view;
    private final AtomicLong lastSeq = new AtomicLong();
    /** What this membership signed and sent, so that it need not verify its own signature when they come back. */
    private final SentCommands sent;
    /**
     * This membership's confirmation of its own SYNC commands to itself, in place of a sealed answer: a random value
     * that never leaves this JVM (JGroups loops a reply to its own address back without sending it), so that only
     * this membership can present it; see {@link #ownConfirmation}.
     */
    private final byte[] selfConfirmation = new byte[32];
    private final Object sendLock = new Object();

    /** @param view the membership's current view (null before the first) */
    CommandSender(ReplicationConfig config, String origin, Clock clock, ReplicationMetrics metrics, OriginAuthentication origins,
                  SenderAuthentication senders, AppliedWatermarks watermarks, JChannel channel, MessageDispatcher dispatcher,
                  Supplier<View> view) {
        this.config = config;
        this.origin = origin;
        this.clock = clock;
        this.metrics = metrics;
        this.origins = origins;
        this.senders = senders;
        this.watermarks = watermarks;
        this.channel = channel;
        this.dispatcher = dispatcher;
        this.view = view;
        this.sent = new SentCommands(origin);
        new SecureRandom().nextBytes(selfConfirmation);
    }

    /**
     * Numbers, encodes and broadcasts, under {@link #sendLock}: one origin's sequence numbers must reach
     * JGroups in order (SEQUENCER and NAKACK2 keep the order they are handed). {@code refusal} is checked
     * again under the lock. A command every replica would refuse (with credentials: this replica's certificate is
     * not valid at the origin time its clock gives) is not numbered nor sent, and the submit fails with
     * {@code NOT_SERVING}: its number is not spent, so no replica waits for it. If JGroups refuses the message, the
     * number is spent and nobody holds that command, so every later command of this origin would wait for it
     * forever: this membership then fails (via {@code failed}) and the replica rejoins as a new origin.
     */
    void send(List<Operation> operations, CompletableFuture<Acknowledgement> result, Executor completer,
              Supplier<ReplicationException> refusal, Consumer<RuntimeException> failed) {
        synchronized (sendLock) {
            ReplicationException refused = refusal.get();
            if (refused != null) {
                completeExceptionally(result, refused, completer);
                return;
            }
            Command command = origins.sign(new Command(new CommandId(origin, lastSeq.get() + 1), clock.millis(), operations));
            boolean acceptedEverywhere = origins.acceptsOwn(command);
            if (origins.enabled() && !acceptedEverywhere) {
                // every replica would refuse it (its certificate is not valid at the origin time): sent, it would spend
                // its sequence number and hold every later command of this origin back, at every replica, for good
                log.warn("not sending {}: this replica's certificate is not valid at its clock ({} ms)", command.id(),
                        command.originMillis());
                metrics.refused("own");
                completeExceptionally(result, new ReplicationException(ErrorCode.NOT_SERVING, "replica " + config.replicaId()
                        + ": its replication certificate is not valid at its clock (" + command.originMillis()
                        + " ms); the command was not sent"), completer);
                return;
            }
            lastSeq.set(command.id().seq());
            byte[] encoded = CommandCodec.encode(command);
            if (acceptedEverywhere) {
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

    /** Whether {@code received} is a command this membership sent, come back byte for byte ({@link SentCommands}). */
    boolean cameBack(Command command, byte[] received) {
        return sent.cameBack(command, received);
    }

    /** What this membership answers to its own SYNC command delivered from its own address, in place of a sealed answer. */
    byte[] selfConfirmation() {
        return selfConfirmation;
    }

    private void cast(Command command, byte[] encoded, CompletableFuture<Acknowledgement> result, Executor completer) throws Exception {
        Message message = new BytesMessage(null, encoded);
        long timeoutMillis = config.timeouts().reply().toMillis();
        if (config.propagation() == ReplicationConfig.Propagation.SYNC) {
            RequestOptions options = new RequestOptions(ResponseMode.GET_ALL, phaseTimeoutMillis(config));
            dispatcher.<Object>castMessageWithFuture(null, message, options)
                    .orTimeout(phaseTimeoutMillis(config), TimeUnit.MILLISECONDS)
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
            View current = view.get();
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
                            + " expected members"),
                    completer);
        }
    }

    /** Asks each of {@code members} whether it applied {@code id}; completes with the replicas that did (members gone: none). */
    private CompletableFuture<Set<String>> confirmApplied(CommandId id, List<Address> members) {
        RequestOptions options = new RequestOptions(ResponseMode.GET_FIRST, phaseTimeoutMillis(config));
        List<CompletableFuture<String>> answers = new ArrayList<>(members.size());
        for (Address member : members) {
            try {
                CompletableFuture<Object> answer = dispatcher.sendMessageWithFuture(
                        new BytesMessage(member, senders.seal(CommandCodec.encodeAppliedQuery(id))), options);
                answers.add(answer.orTimeout(phaseTimeoutMillis(config), TimeUnit.MILLISECONDS).handle((applied, failure) -> {
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

    /** Each of the two SYNC phases, and an answer to an applied query, waits half the reply timeout. */
    static long phaseTimeoutMillis(ReplicationConfig config) {
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
}
