package eu.vpki.ea.core;

import eu.vpki.common.error.ErrorCode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;

/**
 * EA meters: {@code vpki.ea.requests} (timer, tags {@code endpoint} = enrolment|validation,
 * {@code outcome} = ok|refused|undecryptable) and {@code vpki.ea.refusals} (counter, tags
 * {@code endpoint}, {@code code} = the ErrorCode name).
 */
final class EaMetrics {
    private final MeterRegistry registry;
    private final String endpoint;
    private final Timer ok;
    private final Timer refused;
    private final Timer undecryptable;

    EaMetrics(MeterRegistry registry, String endpoint) {
        this.registry = registry;
        this.endpoint = endpoint;
        this.ok = timer("ok");
        this.refused = timer("refused");
        this.undecryptable = timer("undecryptable");
    }

    private Timer timer(String outcome) {
        return Timer.builder("vpki.ea.requests").tag("endpoint", endpoint).tag("outcome", outcome)
                .publishPercentiles(0.5, 0.99).register(registry);
    }

    void ok(long startNanos) {
        ok.record(Duration.ofNanos(System.nanoTime() - startNanos));
    }

    void refused(long startNanos, ErrorCode code) {
        refused.record(Duration.ofNanos(System.nanoTime() - startNanos));
        Counter.builder("vpki.ea.refusals").tag("endpoint", endpoint).tag("code", code.name()).register(registry).increment();
    }

    void undecryptable(long startNanos) {
        undecryptable.record(Duration.ofNanos(System.nanoTime() - startNanos));
    }
}
