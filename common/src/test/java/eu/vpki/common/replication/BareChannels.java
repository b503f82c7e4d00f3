package eu.vpki.common.replication;

import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * JGroups channels on the replicas' own stack ({@link JGroupsStack}) with no {@link Replica} above them, for
 * tests of the stack itself (TLS, {@link PeerDelay}): each named after its replica id, every message it receives
 * handed to a consumer; a state asked of one is answered with one byte, and the replica ids that served or
 * received a state are recorded; {@link #close()} closes them all.
 */
final class BareChannels implements AutoCloseable {
    private final List<JChannel> channels = new ArrayList<>();
    private final List<String> statesServed = new CopyOnWriteArrayList<>();
    private final List<String> statesReceived = new CopyOnWriteArrayList<>();

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

            @Override
            public void getState(OutputStream output) throws IOException {
                statesServed.add(config.replicaId());
                output.write(new byte[]{1});
            }

            @Override
            public void setState(InputStream input) {
                statesReceived.add(config.replicaId());
            }
        });
        channel.connect(cluster);
        return channel;
    }

    /** Replica ids of the channels that answered a state request. */
    List<String> statesServed() {
        return statesServed;
    }

    /** Replica ids of the channels that received a state. */
    List<String> statesReceived() {
        return statesReceived;
    }

    @Override
    public void close() {
        channels.forEach(JChannel::close);
    }
}
