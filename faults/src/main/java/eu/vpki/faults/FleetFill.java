package eu.vpki.faults;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.station.OperatorClient;
import eu.vpki.station.SimulatedStation;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The scale mode of the harness: before the workload and the faults, registers a fleet of {@code size}
 * stations through the Operators (batches of {@link #BATCH}, a few in flight, spread over the
 * Operators), so that the replicated state has a real fleet's size when the faults begin: a snapshot
 * then copies a million stations, a catch-up replays behind them. The filler stations share one
 * canonical key (their keys are never used: the workload's stations are its own) and are named
 * {@code fill-<n>}; the divergence check compares them like every other key.
 */
final class FleetFill {
    /** The canonical ids of the fill: {@code fill-0}, {@code fill-1}, ... */
    static final String ID_PREFIX = "fill-";
    /** Stations per registration request. */
    static final int BATCH = 1_000;
    /** Requests in flight. */
    static final int IN_FLIGHT = 4;
    /** A refused or failed batch is sent again this many times before the fill gives up. */
    static final int ATTEMPTS = 5;

    /** What a fill did. */
    record Result(long stations, long millis, long retries) {
        double perSecond() {
            return millis == 0 ? 0 : stations * 1000.0 / millis;
        }
    }

    private FleetFill() {
    }

    static Result fill(HttpClient http, List<URI> operators, String token, long size, Consumer<String> log)
            throws IOException, InterruptedException {
        if (size <= 0) {
            return new Result(0, 0, 0);
        }
        EtsiKeyPair shared = EtsiKeyPair.generate(EtsiCurve.NIST_P256, new SecureRandom());
        List<OperatorClient> clients = operators.stream().map(u -> new OperatorClient(http, u, token, Duration.ofSeconds(60))).toList();
        long started = System.nanoTime();
        AtomicLong done = new AtomicLong();
        AtomicLong retries = new AtomicLong();
        long batches = (size + BATCH - 1) / BATCH;
        ExecutorService pool = Executors.newFixedThreadPool(IN_FLIGHT, ConsistencyWorkload.daemon("fleet-fill"));
        try {
            List<Future<?>> inFlight = new ArrayList<>();
            for (long b = 0; b < batches; b++) {
                long from = b * BATCH;
                long to = Math.min(size, from + BATCH);
                OperatorClient client = clients.get((int) (b % clients.size()));
                inFlight.add(pool.submit(() -> {
                    List<SimulatedStation> batch = new ArrayList<>((int) (to - from));
                    for (long i = from; i < to; i++) {
                        batch.add(new SimulatedStation(ID_PREFIX + i, shared));
                    }
                    registerWithRetries(client, clients, batch, retries);
                    long total = done.addAndGet(batch.size());
                    if (total / 100_000 != (total - batch.size()) / 100_000) {
                        double s = (System.nanoTime() - started) / 1e9;
                        log.accept(String.format(java.util.Locale.ROOT, "  fleet fill: %,d of %,d stations, %.0f s, %.0f stations/s", total,
                                size, s, total / s));
                    }
                    return null;
                }));
                if (inFlight.size() >= IN_FLIGHT * 4) {
                    await(inFlight.remove(0));
                }
            }
            for (Future<?> f : inFlight) {
                await(f);
            }
        } finally {
            pool.shutdownNow();
        }
        return new Result(done.get(), (System.nanoTime() - started) / 1_000_000, retries.get());
    }

    private static void registerWithRetries(OperatorClient first, List<OperatorClient> all, List<SimulatedStation> batch,
                                            AtomicLong retries)
            throws IOException, InterruptedException {
        String last = "";
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            // a retry goes to the next Operator: the one that refused may be out of service
            OperatorClient client = all.get((all.indexOf(first) + attempt) % all.size());
            try {
                OperatorClient.Answer r = client.register(batch, ConsistencyWorkload.AT_PERMISSIONS, Duration.ofDays(365));
                // refused as already registered: an earlier attempt whose answer was lost registered them (a batch is
                // registered all or nothing, and the fill's ids are its own)
                if (r.status() == 201
                        || r.status() / 100 == 4 && r.body() != null && r.body().toString().contains("is already registered")) {
                    return;
                }
                last = "HTTP " + r.status() + " " + r.problemDetail();
            } catch (IOException e) {
                last = e.toString();
            }
            retries.incrementAndGet();
            Thread.sleep(1_000L << Math.min(attempt, 4));
        }
        throw new IOException(
                "the fleet fill could not register " + batch.get(0).canonicalId() + ".. after " + ATTEMPTS + " attempts: " + last);
    }

    /** {@code contents} without the fill's keys, and its sets without the fill's members. */
    static java.util.SortedMap<String, eu.vpki.common.replication.RedisStateMachine.KeyContent> withoutFill(
                                                                                                            java.util.SortedMap<String, eu.vpki.common.replication.RedisStateMachine.KeyContent> contents) {
        java.util.SortedMap<String, eu.vpki.common.replication.RedisStateMachine.KeyContent> kept = new java.util.TreeMap<>();
        contents.forEach((key, content) -> {
            if (key.contains(":" + ID_PREFIX)) {
                return;
            }
            if (content.members().stream().anyMatch(m -> m.startsWith(ID_PREFIX))) {
                java.util.Set<String> members = new java.util.TreeSet<>(content.members());
                members.removeIf(m -> m.startsWith(ID_PREFIX));
                content = new eu.vpki.common.replication.RedisStateMachine.KeyContent(key, content.kind(), content.hash(), members,
                        content.value());
            }
            kept.put(key, content);
        });
        return kept;
    }

    private static void await(Future<?> f) throws IOException, InterruptedException {
        try {
            f.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }
}
