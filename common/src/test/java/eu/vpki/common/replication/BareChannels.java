package eu.vpki.common.replication;

import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * JGroups channels on the replicas' own stack ({@link JGroupsStack}) with no {@link Replica} above them, for
 * tests of the stack itself (TLS, {@link PeerDelay}): each named after its replica id, every message it receives
 * handed to a consumer; {@link #close()} closes them all.
 */
final class BareChannels implements AutoCloseable {
    private final List<JChannel> channels = new ArrayList<>();

    /** A FIFO, ASYNC configuration on loopback with TCPPING over {@code hosts} and two expected members. */
    static ReplicationConfig config(String id, int port, String hosts, ReplicationConfig.Timeouts timeouts) {
        return new ReplicationConfig("unused", id, ReplicationConfig.Order.FIFO, ReplicationConfig.Propagation.ASYNC, "127.0.0.1", port,
                new ReplicationConfig.Discovery.TcpPing(hosts), 2, timeouts, ReplicationConfig.DEFAULT_APPLY_GROUPING,
                ReplicationConfig.DEFAULT_STATUS_INTERVAL);
    }

    /** Connects a channel of {@code config}'s stack to {@code cluster}. */
    JChannel start(ReplicationConfig config, String cluster, Consumer<Message> received) throws Exception {
        JChannel channel = new JChannel(JGroupsStack.configure(config)).name(config.replicaId());
        channels.add(channel);
        channel.setReceiver(new Receiver() {
            @Override
            public void receive(Message message) {
                received.accept(message);
            }
        });
        channel.connect(cluster);
        return channel;
    }

    @Override
    public void close() {
        channels.forEach(JChannel::close);
    }
}
