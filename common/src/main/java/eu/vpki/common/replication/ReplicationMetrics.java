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
import java.util.function.IntSupplier;

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
 *   <li>{@code vpki.replication.commands} (counter, tags {@code origin}, {@code outcome} = applied, duplicate,
 *       rejected): commands handled by this replica's applier.</li>
 * </ul>
 */
final class ReplicationMetrics {

    private final MeterRegistry registry;
    private final Tags tags;
    private final Timer submitLatency;
    private final Timer applyLag;
    private final DistributionSummary applyBatch;
    private final Map<String, Counter> commands = new ConcurrentHashMap<>();

    ReplicationMetrics(MeterRegistry registry, ReplicationConfig config, IntSupplier viewSize, IntSupplier queueSize) {
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
        Gauge.builder("vpki.replication.view.size", viewSize::getAsInt)
                .description("members in the current view").tags(tags).register(registry);
        Gauge.builder("vpki.replication.apply.queue", queueSize::getAsInt)
                .description("commands delivered but not yet applied").tags(tags).register(registry);
    }

    void submitted(Duration latency) {
        submitLatency.record(latency);
    }

    void batchApplied(int commands) {
        applyBatch.record(commands);
    }

    void applied(Command command, RedisStateMachine.ApplyOutcome outcome, long nowMillis) {
        String origin = command.id().origin();
        commands.computeIfAbsent(origin + '/' + outcome, key -> Counter.builder("vpki.replication.commands")
                .description("commands handled by this replica's applier")
                .tags(tags).tag("origin", origin).tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                .register(registry)).increment();
        if (outcome == RedisStateMachine.ApplyOutcome.APPLIED) {
            applyLag.record(Duration.ofMillis(Math.max(0, nowMillis - command.originMillis())));
        }
    }
}
