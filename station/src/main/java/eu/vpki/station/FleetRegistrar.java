package eu.vpki.station;

import eu.vpki.common.etsi.ts103097.PsidSsp;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Registers simulated stations through the Operator REST API ({@code POST /operator/v1/stations},
 * {@link OperatorClient}), in batches: canonical id, canonical public key, permitted AT permissions,
 * maximum EC validity.
 *
 * <p>{@link #register(List, List, Duration, int)} stops at the first refused batch (the demo, the experiments: a
 * fleet is registered whole or not at all). {@link #stream} is what {@code register} runs for a fleet of any size:
 * it generates each batch when it sends it, hands every acknowledged batch to a {@link Listener} (which appends it to
 * the fleet file) before it sends the next, retries a batch that failed for a reason that may pass (no answer, 5xx,
 * 429) with a growing pause, and records a batch that still fails, or was refused for good (4xx), then goes on.
 */
public final class FleetRegistrar {
    private final OperatorClient api;

    public FleetRegistrar(HttpClient http, URI operator, String token) {
        this(new OperatorClient(http, operator, token, Duration.ofSeconds(60)));
    }

    public FleetRegistrar(OperatorClient api) {
        this.api = api;
    }

    /**
     * How often a batch is sent before it is recorded as failed, and the pause before each new attempt (doubled each
     * time, at most {@code maxBackoff}).
     */
    public record Retry(int attempts, Duration firstBackoff, Duration maxBackoff) {
        /** 4 attempts, 1 s, 2 s, 4 s apart. */
        public static final Retry DEFAULT = new Retry(4, Duration.ofSeconds(1), Duration.ofSeconds(30));

        public Retry {
            if (attempts < 1 || attempts > 100) {
                throw new IllegalArgumentException("attempts must be between 1 and 100, not " + attempts);
            }
            if (firstBackoff.isNegative() || maxBackoff.compareTo(firstBackoff) < 0) {
                throw new IllegalArgumentException("backoff must be 0 or more and at most its maximum");
            }
        }

        Duration backoff(int failedAttempts) {
            Duration pause = firstBackoff.multipliedBy(1L << Math.min(20, failedAttempts - 1));
            return pause.compareTo(maxBackoff) > 0 ? maxBackoff : pause;
        }
    }

    /** A batch recorded as failed: its first station's index in the run, its size, the attempts made and the last reason. */
    public record FailedBatch(long from, int size, int attempts, String reason) {
    }

    /** What a streaming run did: the stations acknowledged, the batches that failed, the last write's version. */
    public record Summary(long registered, List<FailedBatch> failed, String version) {
        public long failedStations() {
            return failed.stream().mapToLong(FailedBatch::size).sum();
        }
    }

    /** Told of every batch as it ends, on the registering thread, before the next batch is sent. */
    public interface Listener {
        /** The Operator registered {@code batch}; stations {@code from}.. of the run. An exception stops the run. */
        void acknowledged(long from, List<SimulatedStation> batch) throws IOException;

        /** {@code batch} was given up. */
        default void failed(FailedBatch batch) {
        }
    }

    /** Registers {@code stations} in batches; stops at the first refused batch. Returns the version of the last batch. */
    public String register(List<SimulatedStation> stations, List<PsidSsp> permissions, Duration maxEcValidity, int batchSize)
            throws IOException, InterruptedException {
        String version = null;
        for (int from = 0; from < stations.size(); from += batchSize) {
            List<SimulatedStation> batch = stations.subList(from, Math.min(stations.size(), from + batchSize));
            OperatorClient.Answer r = api.register(batch, permissions, maxEcValidity);
            if (r.status() != 201) {
                throw new IOException("the Operator refused the registration of stations " + from + ".." + (from + batch.size() - 1)
                        + ": HTTP " + r.status() + " " + r.body());
            }
            version = r.version() != null ? r.version() : version;
        }
        return version;
    }

    /**
     * Registers {@code count} stations, station {@code i} being {@code station.apply(i)}, in batches of {@code batchSize},
     * generated when sent (in parallel: a key pair each). Never stops at a failed batch.
     *
     * @throws IOException if the listener cannot keep an acknowledged batch (the fleet file): the run stops there
     */
    public Summary stream(long count, IntFunction<SimulatedStation> station, int batchSize, List<PsidSsp> permissions,
                          Duration maxEcValidity, Retry retry, Listener listener)
            throws IOException, InterruptedException {
        if (batchSize < 1) {
            throw new IllegalArgumentException("a batch holds at least one station");
        }
        long registered = 0;
        String version = null;
        List<FailedBatch> failed = new ArrayList<>();
        for (long from = 0; from < count; from += batchSize) {
            int size = (int) Math.min(batchSize, count - from);
            int first = Math.toIntExact(from);
            List<SimulatedStation> batch = java.util.stream.IntStream.range(first, first + size).parallel().mapToObj(station).toList();
            Sent sent = send(batch, permissions, maxEcValidity, retry);
            if (sent.failure() == null) {
                listener.acknowledged(from, batch);
                registered += size;
                version = sent.version() != null ? sent.version() : version;
            } else {
                FailedBatch f = new FailedBatch(from, size, sent.attempts(), sent.failure());
                failed.add(f);
                listener.failed(f);
            }
        }
        return new Summary(registered, List.copyOf(failed), version);
    }

    /** One batch's outcome: its version, or why it failed, and the attempts it took. */
    private record Sent(String version, String failure, int attempts) {
    }

    private Sent send(List<SimulatedStation> batch, List<PsidSsp> permissions, Duration maxEcValidity, Retry retry)
            throws InterruptedException {
        // whether an earlier attempt may have registered the batch unseen (no answer): a later "already registered"
        // then means ours, since every id of a run carries its own random prefix
        boolean outcomeUnknown = false;
        String reason = null;
        for (int attempt = 1; attempt <= retry.attempts(); attempt++) {
            if (attempt > 1) {
                TimeUnit.MILLISECONDS.sleep(retry.backoff(attempt - 1).toMillis());
            }
            OperatorClient.Answer answer;
            try {
                answer = api.register(batch, permissions, maxEcValidity);
            } catch (IOException e) {
                outcomeUnknown = true;
                reason = "no answer: " + e;
                continue;
            }
            if (answer.status() == 201) {
                return new Sent(answer.version(), null, attempt);
            }
            reason = "HTTP " + answer.status() + (answer.problem() == null ? "" : " " + answer.problem())
                    + (answer.problemDetail() == null ? "" : ": " + answer.problemDetail());
            if (answer.status() == 409 && outcomeUnknown && registeredEarlier(batch)) {
                return new Sent(null, null, attempt);
            }
            if (!mayPass(answer.status())) {
                return new Sent(null, reason, attempt);
            }
        }
        return new Sent(null, reason, retry.attempts());
    }

    /** A refusal that may not recur: the Operator out of service, its Redis full, overloaded, or a proxy in between. */
    static boolean mayPass(int status) {
        return status >= 500 || status == 429 || status == 408;
    }

    /** Whether the batch's first and last stations are registered (a batch is one replicated command: all or none). */
    private boolean registeredEarlier(List<SimulatedStation> batch) throws InterruptedException {
        try {
            return api.read(batch.get(0).canonicalId(), null).status() == 200
                    && api.read(batch.get(batch.size() - 1).canonicalId(), null).status() == 200;
        } catch (IOException e) {
            return false;
        }
    }
}
