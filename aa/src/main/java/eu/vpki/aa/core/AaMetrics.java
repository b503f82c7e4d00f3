package eu.vpki.aa.core;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The AA's meters:
 * <ul>
 *   <li>{@code vpki.aa.tickets{outcome=issued|refused|undecryptable, code}}: requests by outcome and
 *       AuthorizationResponseCode (the code a refusal would carry for undecryptable ones);</li>
 *   <li>{@code vpki.aa.phase{phase=decrypt|validation|issue|encrypt}}: latency of the four phases
 *       (decrypt includes parsing, proof of possession and keyTag; validation is the EA round trip
 *       including its retries; issue is policy and signing; encrypt is the signed, encrypted response);</li>
 *   <li>{@code vpki.aa.ea.failures{reason}}: EA calls that gave no readable answer.</li>
 * </ul>
 * The replay cache has its own meters ({@code cache.*{cache=aa-replay}}, {@code vpki.replay.early.evictions}).
 */
public final class AaMetrics {
    /** The timed phases. */
    public enum Phase {
        DECRYPT, VALIDATION, ISSUE, ENCRYPT;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final MeterRegistry registry;
    private final Map<String, Counter> tickets = new ConcurrentHashMap<>();
    private final Map<EaCallException.Reason, Counter> eaFailures = new ConcurrentHashMap<>();
    private final Map<Phase, Timer> phases = new ConcurrentHashMap<>();

    public AaMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (Phase p : Phase.values()) {
            phases.put(p, Timer.builder("vpki.aa.phase").tag("phase", p.tag())
                    .description("AA request latency by phase").register(registry));
        }
    }

    void ticket(AuditRecord.Outcome outcome, int responseCode) {
        tickets.computeIfAbsent(outcome.tag() + ":" + responseCode, k -> Counter.builder("vpki.aa.tickets")
                .tag("outcome", outcome.tag()).tag("code", Integer.toString(responseCode))
                .description("authorization requests by outcome and AuthorizationResponseCode").register(registry)).increment();
    }

    void eaFailure(EaCallException.Reason reason) {
        eaFailures.computeIfAbsent(reason, r -> Counter.builder("vpki.aa.ea.failures").tag("reason", r.tag())
                .description("EA validation calls without a readable answer").register(registry)).increment();
    }

    void record(Phase phase, long nanos) {
        phases.get(phase).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }
}
