package eu.vpki.station.load;

import java.time.Duration;

/**
 * How load is offered. Open loop: operations start at a target rate whatever the server does, and
 * latency counts from the intended start (queueing is not hidden: no coordinated omission). Closed
 * loop: a fixed number of workers each start the next operation when the previous one ends.
 * Paced: a fixed number of workers each take the next start slot of a shared rate cap and run their
 * operation to its end before taking another, so that the rate is at most the cap and an outage
 * slows the offered load instead of queueing it (what the fault harness's workload needs).
 * Every run is bounded by an operation count and a duration; it always stops by itself (or when
 * its {@link LoadRunner.Stop} is requested).
 */
public sealed interface LoadModel {
    long maxOperations();

    Duration maxDuration();

    record Open(double ratePerSecond, long maxOperations, Duration maxDuration, int workers) implements LoadModel {
        public Open {
            if (ratePerSecond <= 0 || maxOperations <= 0 || workers <= 0) {
                throw new IllegalArgumentException("rate, operations and workers must be positive");
            }
        }
    }

    record Closed(int concurrency, long maxOperations, Duration maxDuration) implements LoadModel {
        public Closed {
            if (concurrency <= 0 || maxOperations <= 0) {
                throw new IllegalArgumentException("concurrency and operations must be positive");
            }
        }
    }

    record Paced(double ratePerSecond, int workers, long maxOperations, Duration maxDuration) implements LoadModel {
        public Paced {
            if (ratePerSecond <= 0 || maxOperations <= 0 || workers <= 0) {
                throw new IllegalArgumentException("rate, operations and workers must be positive");
            }
        }
    }
}
