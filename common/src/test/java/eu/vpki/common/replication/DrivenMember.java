package eu.vpki.common.replication;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jgroups.Address;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * What a test needs to drive one member's anti-entropy parts directly, without a JGroups channel or
 * Redis: replica r0 of three expected members (status interval 500 ms, so a 2 s lease), its metrics,
 * and an applier that is never started.
 */
final class DrivenMember {
    private DrivenMember() {
    }

    /** Replica r0 of three expected members, FIFO + ASYNC, status interval 500 ms (lease 2 s). */
    static ReplicationConfig threeMembers() {
        return new ReplicationConfig("t", "r0", ReplicationConfig.Order.FIFO, ReplicationConfig.Propagation.ASYNC,
                "127.0.0.1", 7800, new ReplicationConfig.Discovery.TcpPing("127.0.0.1[7800]"), 3,
                new ReplicationConfig.Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofMillis(500),
                        Duration.ofSeconds(5)));
    }

    /** Metrics whose gauges report a serving member of a full view. */
    static ReplicationMetrics metrics(ReplicationConfig config, String origin) {
        return new ReplicationMetrics(new SimpleMeterRegistry(), config, new ReplicationMetrics.Gauges() {
            @Override
            public int viewSize() {
                return 3;
            }

            @Override
            public int queued() {
                return 0;
            }

            @Override
            public ReplicaStatus status() {
                return new ReplicaStatus(ReplicaStatus.State.SERVING, config.replicaId(), origin, 3, 3, 0, 0, "test");
            }

            @Override
            public boolean coordinator() {
                return false;
            }

            @Override
            public long commandLogLength() {
                return 0;
            }

            @Override
            public ReplicationSnapshot.RedisMemory redisMemory() {
                return null;
            }
        });
    }

    /** An applier of {@code origin} that is never started: no gaps, nothing waiting. */
    static Applier idleApplier(String origin, AppliedWatermarks watermarks, ReplicationMetrics metrics) {
        return new Applier(origin, Duration.ZERO, null, watermarks, metrics, Clock.systemUTC(), failure -> {
        });
    }

    /**
     * Peers that answer nothing: reports go nowhere, pulls and page requests fail. A test overrides what its peer
     * answers.
     */
    static class SilentPeers implements AntiEntropy.Peers {
        @Override
        public void broadcast(byte[] report) {
        }

        @Override
        public CompletableFuture<byte[]> pull(Address peer, byte[] request) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("no pulls here"));
        }

        @Override
        public CompletableFuture<byte[]> snapshotPage(Address provider, byte[] request) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("no snapshots here"));
        }
    }
}
