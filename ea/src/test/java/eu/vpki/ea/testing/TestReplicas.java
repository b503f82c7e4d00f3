package eu.vpki.ea.testing;

import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicationConfig;
import eu.vpki.common.testing.TestPorts;
import io.micrometer.core.instrument.MeterRegistry;
import redis.clients.jedis.JedisPool;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** Replica configurations for tests: TCP on 127.0.0.1, TCPPING over the given ports, short timeouts. */
public final class TestReplicas {
    public static final ReplicationConfig.Timeouts TIMEOUTS = new ReplicationConfig.Timeouts(Duration.ofSeconds(5),
            Duration.ofSeconds(20), Duration.ofMillis(500), Duration.ofSeconds(5));

    private TestReplicas() {
    }

    public static ReplicationConfig config(String cluster, String id, int index, List<Integer> ports, int expected,
                                           ReplicationConfig.Order order, ReplicationConfig.Propagation propagation) {
        String hosts = ports.stream().map(p -> "127.0.0.1[" + p + "]").collect(Collectors.joining(","));
        return new ReplicationConfig(cluster, id, order, propagation, "127.0.0.1", ports.get(index),
                new ReplicationConfig.Discovery.TcpPing(hosts), expected, TIMEOUTS);
    }

    /** A connected one-member replica over the fleet keyspace. */
    public static Replica single(JedisPool redis, Clock clock, MeterRegistry registry) {
        int port = freePort();
        Replica replica = new Replica(config("single-" + port, "solo", 0, List.of(port), 1, ReplicationConfig.Order.FIFO,
                ReplicationConfig.Propagation.SYNC), FleetKeys.KEYSPACE, redis, clock, registry);
        replica.connect();
        return replica;
    }

    public static int freePort() {
        return TestPorts.free();
    }
}
