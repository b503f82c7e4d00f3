package eu.vpki.common.replication;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.blocks.MessageDispatcher;
import org.jgroups.blocks.RequestOptions;
import org.jgroups.blocks.ResponseMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * How the {@link AntiEntropy} reaches its peers over this incarnation's JGroups channel: reports
 * broadcast out of band, pulls of a peer's log sealed and opened with {@link SenderAuthentication},
 * and a snapshot fetched from a peer ({@code getState}). See {@code docs/replication.md}
 * ("Anti-entropy: hold-back, applied reports, pulls") and {@code docs/design-replication-security.md}.
 */
final class ChannelPeers implements AntiEntropy.Peers {

    private static final Logger log = LoggerFactory.getLogger(ChannelPeers.class);

    private final ReplicationConfig config;
    private final ReplicationMetrics metrics;
    private final SenderAuthentication senders;
    private final JChannel channel;
    private final MessageDispatcher dispatcher;
    private final BooleanSupplier closed;

    /** @param closed whether the membership has left (then nothing is broadcast) */
    ChannelPeers(ReplicationConfig config, ReplicationMetrics metrics, SenderAuthentication senders, JChannel channel,
                 MessageDispatcher dispatcher, BooleanSupplier closed) {
        this.config = config;
        this.metrics = metrics;
        this.senders = senders;
        this.channel = channel;
        this.dispatcher = dispatcher;
        this.closed = closed;
    }

    @Override
    public void broadcast(byte[] report) {
        if (closed.getAsBoolean()) {
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
        return request(peer, request, config.timeouts().reply().toMillis());
    }

    /** The page {@code provider} signed, or failed; within the state-transfer timeout. */
    @Override
    public CompletableFuture<byte[]> snapshotPage(Address provider, byte[] request) {
        return request(provider, request, config.timeouts().stateTransfer().toMillis());
    }

    private CompletableFuture<byte[]> request(Address peer, byte[] request, long timeoutMillis) {
        try {
            return dispatcher.<byte[]>sendMessageWithFuture(new BytesMessage(peer, senders.seal(request)),
                    new RequestOptions(ResponseMode.GET_FIRST, timeoutMillis).flags(Message.Flag.OOB))
                    .orTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                    .thenApply(answer -> {
                        try {
                            return senders.open(answer, peer).message();
                        } catch (SenderAuthentication.Refused refused) {
                            metrics.refused("sender");
                            log.warn("refused an answer from {}: {}", peer, refused.getMessage());
                            throw refused;
                        }
                    });
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
