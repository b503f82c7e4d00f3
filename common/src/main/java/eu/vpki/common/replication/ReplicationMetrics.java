package eu.vpki.common.replication;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A replica's meters, all tagged with {@code cluster} and {@code replica}:
 * <ul>
 *   <li>{@code vpki.replication.submit.latency} (timer, tag {@code propagation}): submit to acknowledgement
 *       at the origin, the latency a client sees;</li>
 *   <li>{@code vpki.replication.apply.lag} (timer): from the origin creating a command to this replica
 *       applying it (origin and replica clocks; same host in tests, NTP-synchronised in production);</li>
 *   <li>{@code vpki.replication.apply.batch} (distribution summary): commands applied per Redis round trip
 *       (grouped by {@code apply-grouping} in ASYNC, or queued while the previous round trip ran);</li>
 *   <li>{@code vpki.replication.apply.queue} (gauge): commands delivered but not yet applied here;</li>
 *   <li>{@code vpki.replication.view.size} (gauge): members in the current view;</li>
 *   <li>{@code vpki.replication.commands} (counter, tags {@code origin} = the origin's replica id, {@code outcome}
 *       = applied, duplicate, rejected): commands handled by this replica's applier;</li>
 *   <li>{@code vpki.replication.serving} (gauge): 1 while the replica serves requests, else 0 ({@link ReplicaStatus});</li>
 *   <li>{@code vpki.replication.missing} (gauge): commands some member reported applied that this replica
 *       has not applied (in flight or missing): its lag, in commands;</li>
 *   <li>{@code vpki.replication.held} (gauge): commands held back because an earlier command of their origin is
 *       missing here (a gap; non-zero only while it lasts);</li>
 *   <li>{@code vpki.replication.expected.members} (gauge): the configured replica count;</li>
 *   <li>{@code vpki.replication.coordinator} (gauge): 1 while this replica coordinates its view;</li>
 *   <li>{@code vpki.replication.state} (gauge, tag {@code state} = a {@link ReplicaStatus.State} in lower case): 1 for the
 *       current state, 0 for the others (why the serving gate is closed);</li>
 *   <li>{@code vpki.replication.log.commands} (gauge): commands in this replica's command log (Redis {@code XLEN} per
 *       origin);</li>
 *   <li>{@code vpki.redis.memory.used}, {@code vpki.redis.memory.max} (gauges, bytes): the replica's Redis's
 *       {@code used_memory} and {@code maxmemory} (0 = no limit), from {@code INFO memory}. These three are read by the
 *       replica's control thread about once a second, never by a scrape (a Redis that hangs must not hang the scrape
 *       that would report it); NaN once the last read is a few seconds old;</li>
 *   <li>{@code vpki.replication.recovered} (counter): commands fetched from a peer's log (gaps filled, catching up);</li>
 *   <li>{@code vpki.replication.transfer.entries}, {@code vpki.replication.transfer.bytes} (counters): keys (or parts of
 *       large sets) and bytes this replica installed from state-transfer pages ({@link StateTransfer}); their rate is
 *       the transfer's progress;</li>
 *   <li>{@code vpki.replication.transfer.served} (counter, bytes): state-transfer pages this replica served to a
 *       joiner;</li>
 *   <li>{@code vpki.replication.refused} (counter, tag {@code reason}): messages refused unread and changing nothing:
 *       {@code malformed} (any kind of message that does not decode), {@code direct} (a delivered command its
 *       origin did not sign, {@link OriginAuthentication}), {@code pull} (such a command in a peer's answer to a
 *       pull, with the rest of that answer), {@code sender} (a report, pull, answer or confirmation not signed by the
 *       replica it comes from or speaks for, {@link SenderAuthentication}).</li>
 * </ul>
 */
final class ReplicationMetrics {

    private final MeterRegistry registry;
    private final Tags tags;
    private final Timer submitLatency;
    private final Timer applyLag;
    private final DistributionSummary applyBatch;
    private final Counter recovered;
    private final Counter transferEntries;
    private final Counter transferBytes;
    private final Counter transferServed;
    private final Map<String, Counter> commands = new ConcurrentHashMap<>();
    private final Map<String, Counter> refused = new ConcurrentHashMap<>();

    /** Where the gauges read their values. */
    interface Gauges {
        int viewSize();

        int queued();

        ReplicaStatus status();

        /** Whether this replica coordinates its view. */
        boolean coordinator();

        /** Commands in its command log; -1 when its Redis does not answer. */
        long commandLogLength();

        /** Its Redis's memory; null when Redis does not answer. */
        ReplicationSnapshot.RedisMemory redisMemory();

        /** Whether this replica's state is incomplete (an interrupted or running state transfer). */
        default boolean stateIncomplete() {
            return false;
        }
    }

    ReplicationMetrics(MeterRegistry registry, ReplicationConfig config, Gauges gauges) {
        this.registry = registry;
        this.tags = Tags.of("cluster", config.clusterName(), "replica", config.replicaId());
        this.submitLatency = Timer.builder("vpki.replication.submit.latency")
                .description("submit to acknowledgement at the origin")
                .tags(tags).tag("propagation", config.propagation().name())
                .publishPercentiles(0.5, 0.99)
                .register(registry);
        this.applyLag = Timer.builder("vpki.replication.apply.lag")
                .description("origin creating a command to this replica applying it")
                .tags(tags)
                .register(registry);
        this.applyBatch = DistributionSummary.builder("vpki.replication.apply.batch")
                .description("commands applied per Redis round trip").baseUnit("commands")
                .tags(tags)
                .register(registry);
        Gauge.builder("vpki.replication.view.size", gauges::viewSize)
                .description("members in the current view").tags(tags).register(registry);
        Gauge.builder("vpki.replication.apply.queue", gauges::queued)
                .description("commands delivered but not yet applied").tags(tags).register(registry);
        Gauge.builder("vpki.replication.serving", () -> gauges.status().serving() ? 1 : 0)
                .description("1 while this replica serves requests").tags(tags).register(registry);
        Gauge.builder("vpki.replication.state.incomplete", () -> gauges.stateIncomplete() ? 1 : 0)
                .description("1 while this replica's state is incomplete (a state transfer runs or was interrupted): it serves nothing")
                .tags(tags).register(registry);
        Gauge.builder("vpki.replication.missing", () -> gauges.status().missingCommands())
                .description("commands a member applied that this replica has not").baseUnit("commands").tags(tags)
                .register(registry);
        Gauge.builder("vpki.replication.held", () -> gauges.status().heldCommands())
                .description("commands held back until an earlier command of their origin arrives").baseUnit("commands")
                .tags(tags).register(registry);
        Gauge.builder("vpki.replication.expected.members", config::expectedMembers)
                .description("the configured replica count (vpki.replication.expected-members)").tags(tags).register(registry);
        Gauge.builder("vpki.replication.coordinator", () -> gauges.coordinator() ? 1 : 0)
                .description("1 while this replica coordinates its JGroups view").tags(tags).register(registry);
        for (ReplicaStatus.State state : ReplicaStatus.State.values()) {
            Gauge.builder("vpki.replication.state", () -> gauges.status().state() == state ? 1 : 0)
                    .description("1 for the replica's current state (serving, or why its serving gate is closed)")
                    .tags(tags).tag("state", state.name().toLowerCase(Locale.ROOT)).register(registry);
        }
        Gauge.builder("vpki.replication.log.commands", () -> orNaN(gauges.commandLogLength()))
                .description("commands in this replica's command log (trimmed once every member applied them)").baseUnit("commands")
                .tags(tags).register(registry);
        Gauge.builder("vpki.redis.memory.used", () -> {
            ReplicationSnapshot.RedisMemory memory = gauges.redisMemory();
            return memory == null ? Double.NaN : memory.usedBytes();
        }).description("memory the replica's Redis uses (INFO memory used_memory)").baseUnit("bytes").tags(tags).register(registry);
        Gauge.builder("vpki.redis.memory.max", () -> {
            ReplicationSnapshot.RedisMemory memory = gauges.redisMemory();
            return memory == null ? Double.NaN : memory.maxBytes();
        }).description("the replica's Redis memory limit (maxmemory; 0 = none)").baseUnit("bytes").tags(tags).register(registry);
        this.recovered = Counter.builder("vpki.replication.recovered")
                .description("commands fetched from a peer's log").baseUnit("commands").tags(tags).register(registry);
        this.transferEntries = Counter.builder("vpki.replication.transfer.entries")
                .description("keys (or parts of large sets) installed from state-transfer pages").tags(tags).register(registry);
        this.transferBytes = Counter.builder("vpki.replication.transfer.bytes")
                .description("bytes of state-transfer pages installed").baseUnit("bytes").tags(tags).register(registry);
        this.transferServed = Counter.builder("vpki.replication.transfer.served")
                .description("bytes of state-transfer pages served to joiners").baseUnit("bytes").tags(tags).register(registry);
    }

    private static double orNaN(long value) {
        return value < 0 ? Double.NaN : value;
    }

    void refused(String reason) {
        refused(reason, 1);
    }

    void refused(String reason, int count) {
        refused.computeIfAbsent(reason, r -> Counter.builder("vpki.replication.refused")
                .description(
                        "replication messages refused: malformed, commands their origin did not sign, other messages their sender did not sign")
                .baseUnit("messages").tags(tags).tag("reason", r).register(registry)).increment(count);
    }

    void recovered(int count) {
        recovered.increment(count);
    }

    /** A state-transfer page of {@code entries} entries and {@code bytes} bytes was installed here. */
    void transferPage(int entries, long bytes) {
        transferEntries.increment(entries);
        transferBytes.increment(bytes);
    }

    /** A state-transfer page of {@code bytes} bytes was served to a joiner. */
    void transferServed(long bytes) {
        transferServed.increment(bytes);
    }

    void submitted(Duration latency) {
        submitLatency.record(latency);
    }

    void batchApplied(int commands) {
        applyBatch.record(commands);
    }

    void applied(Command command, RedisStateMachine.ApplyOutcome outcome, long nowMillis) {
        String origin = command.id().replicaId(); // not the incarnation: one series per replica, however often it restarts
        commands.computeIfAbsent(origin + '/' + outcome, key -> Counter.builder("vpki.replication.commands")
                .description("commands handled by this replica's applier")
                .tags(tags).tag("origin", origin).tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                .register(registry)).increment();
        if (outcome == RedisStateMachine.ApplyOutcome.APPLIED) {
            applyLag.record(Duration.ofMillis(Math.max(0, nowMillis - command.originMillis())));
        }
    }
}
