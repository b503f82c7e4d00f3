package eu.vpki.common.replication;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.blocks.RequestHandler;
import org.jgroups.blocks.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Receives what JGroups delivers to this incarnation: decodes each message, checks who sent it
 * ({@link OriginAuthentication} for commands, {@link SenderAuthentication} for the rest) and hands it
 * on: a command to the {@link Applier} (answering a SYNC command with a sealed confirmation), a report
 * to the {@link AntiEntropy}, a pull or a request for a page of this replica's state ({@link SnapshotPage}) to the
 * replica's server thread, an applied query to the watermarks. A malformed or unauthentic message is refused, logged and counted, and not answered.
 * Never blocks. See {@code docs/replication.md} and {@code docs/design-replication-security.md}.
 */
final class MessageHandler implements RequestHandler {

    private static final Logger log = LoggerFactory.getLogger(MessageHandler.class);

    private final ReplicationConfig config;
    private final String origin;
    private final CommandLog commandLog;
    private final RedisStateMachine stateMachine;
    private final ReplicationMetrics metrics;
    private final OriginAuthentication origins;
    private final SenderAuthentication senders;
    private final Executor server;
    private final AppliedWatermarks watermarks;
    private final Applier applier;
    private final AntiEntropy antiEntropy;
    private final CommandSender sender;
    private final JChannel channel;
    /** This replica's receiver id in the tags of other origins' commands ({@link ReceiverTags}); null without credentials. */
    private final byte[] ownTagId;

    /** @param server runs pulls and state-transfer pages that peers ask for (Redis reads) */
    MessageHandler(ReplicationConfig config, String origin, CommandLog commandLog, RedisStateMachine stateMachine,
                   ReplicationMetrics metrics,
                   OriginAuthentication origins, SenderAuthentication senders, Executor server, AppliedWatermarks watermarks,
                   Applier applier, AntiEntropy antiEntropy, CommandSender sender, JChannel channel) {
        this.config = config;
        this.origin = origin;
        this.commandLog = commandLog;
        this.stateMachine = stateMachine;
        this.metrics = metrics;
        this.origins = origins;
        this.senders = senders;
        this.server = server;
        this.watermarks = watermarks;
        this.applier = applier;
        this.antiEntropy = antiEntropy;
        this.sender = sender;
        this.channel = channel;
        this.ownTagId = origins.tagId();
    }

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
                    watermarks.whenApplied(id).orTimeout(CommandSender.phaseTimeoutMillis(config), TimeUnit.MILLISECONDS)
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
            case CommandCodec.SNAPSHOT_REQUEST -> {
                if (response != null) {
                    serveSnapshotPage(CommandCodec.decodeSnapshotRequest(inner), opened.sender(), response);
                }
            }
            default -> log.warn("ignored a message of kind {} from {}", CommandCodec.kind(inner), source);
        }
    }

    /**
     * What this replica answers to a delivered SYNC command (from the applier: applied, held back, or the
     * failure): whether it applied it, sealed ({@link SenderAuthentication}), so that nobody else can confirm it
     * in this replica's name. A failure goes back as it is (it confirms nothing). Its own command, delivered from
     * its own address, it confirms to itself with {@link CommandSender#selfConfirmation()} instead: the reply goes
     * to that address, this membership, and is never sent.
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
                response.send(sender.selfConfirmation(), false);
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
        String refusal = this.sender.cameBack(command, received) ? null : origins.refusal(command, received, tag);
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
                            CommandFetcher.PULL_COMMANDS, CommandFetcher.PULL_BYTES);
                    response.send(senders.seal(CommandCodec.encodeCommands(commands)), false);
                } catch (RuntimeException e) {
                    response.send(e, true);
                }
            });
        } catch (RejectedExecutionException e) {
            response.send(e, true);
        }
    }

    /**
     * A page of this replica's state for a joiner ({@link RedisStateMachine#readSnapshotPage}), read on the server thread
     * while the applier keeps applying. Refused (an exception, which the joiner sees as a failed page) while this replica's
     * own state is incomplete: it has nothing whole to give.
     */
    private void serveSnapshotPage(SnapshotPage.Position position, String joiner, Response response) {
        try {
            server.execute(() -> {
                try {
                    if (antiEntropy.gate().incomplete() || applier.replacingState()) {
                        throw new ReplicationException(ErrorCode.NOT_SERVING,
                                "replica " + config.replicaId() + " holds an incomplete state itself");
                    }
                    if (position.start()) {
                        log.info("replica {} sends its state to {}, page by page", config.replicaId(), joiner);
                    }
                    SnapshotPage page = stateMachine.readSnapshotPage(position, StateTransfer.PAGE_BYTES);
                    byte[] encoded = CommandCodec.encodeSnapshotPage(page);
                    metrics.transferServed(encoded.length);
                    if (page.last()) {
                        log.info("replica {} sent the last page of its state to {}", config.replicaId(), joiner);
                    }
                    response.send(senders.seal(encoded), false);
                } catch (RuntimeException e) {
                    response.send(e, true);
                }
            });
        } catch (RejectedExecutionException e) {
            response.send(e, true);
        }
    }
}
