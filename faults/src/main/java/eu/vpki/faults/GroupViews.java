package eu.vpki.faults;

import eu.vpki.testbed.ReplicaNode;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the replicas say about their group, from outside: the size of each replica's view from its
 * metrics ({@code vpki.replication.view.size} on its management port, 0 once the replica failed or
 * left), and each replica's latest view (coordinator, view id, members) from the line it logs on
 * every view change. Used to find the coordinator (the TOTAL-order sequencer) and to wait until a
 * fault has healed (and by the replicas experiment to name the sequencer whose CPU it measures). Logs
 * are read incrementally: each call reads only what was appended since.
 */
public final class GroupViews {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** {@code replica X view [coord|id] (n) [a, b, ...]}, also {@code ... view MergeView::[...]} and {@code joined ..., view [...]}. */
    private static final Pattern VIEW = Pattern.compile(
            "replica (\\S+) (?:joined .*?, )?view (?:MergeView::)?\\[([^|\\]]+)\\|(\\d+)\\] \\((\\d+)\\) \\[([^\\]]*)\\]");
    private static final int CHUNK = 1 << 20;

    /** One replica's latest view as it logged it. */
    record View(String replica, String coordinator, long id, int size, List<String> members) {
    }

    /** How far a log was read, and the last view line found in it. */
    private static final class LogPosition {
        long offset;
        String partial = "";
        View last;
    }

    private final List<ReplicaNode> replicas;
    private final HttpClient http;
    private final Map<Path, LogPosition> positions = new ConcurrentHashMap<>();

    public GroupViews(List<ReplicaNode> replicas, HttpClient http) {
        this.replicas = List.copyOf(replicas);
        this.http = http;
    }

    /** The size of the replica's view from its metrics; -1 when it does not answer. */
    int viewSize(ReplicaNode replica) {
        if (replica.jvm() == null) {
            return -1;
        }
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    replica.jvm().managementUrl().resolve(URI.create("/actuator/metrics/vpki.replication.view.size")))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return -1;
            }
            JsonNode m = JSON.readTree(r.body()).path("measurements");
            return m.isEmpty() ? -1 : (int) m.get(0).path("value").asDouble(-1);
        } catch (IOException | RuntimeException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /**
     * One probe of whether the replica serves: its health on the management port answers UP (in a
     * majority view, with its Redis), the condition the harness waits for after starting a replica.
     * Stamped with {@code now} when the answer came or the probe gave up (2 s). Null when the probe was
     * interrupted: the sampling is being stopped, and that says nothing of the replica.
     */
    RunRecord.Sample serving(ReplicaNode replica, java.util.function.LongSupplier now) {
        if (replica.jvm() == null || !replica.jvmRunning()) {
            return new RunRecord.Sample(replica.name(), now.getAsLong(), false, "not running");
        }
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(replica.jvm().managementUrl().resolve(URI.create("/actuator/health")))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            boolean up = r.statusCode() == 200 && r.body().contains("\"UP\"");
            String status = JSON.readTree(r.body()).path("status").asText("");
            return new RunRecord.Sample(replica.name(), now.getAsLong(), up, up ? "" : "health " + r.statusCode() + " " + status);
        } catch (IOException | RuntimeException e) {
            if (Thread.currentThread().isInterrupted()) {
                return null; // the sampling is being stopped: the failure is the interrupt's, not the replica's
            }
            return new RunRecord.Sample(replica.name(), now.getAsLong(), false, "no answer (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * One sample of the replica's resources: heap used and its maximum from its actuator metrics, its
     * Redis's {@code used_memory}, and the entries of its command log (every stream under
     * {@code logPrefix}); -1 for what could not be read.
     */
    RunRecord.Resources resources(ReplicaNode replica, String logPrefix, java.util.function.LongSupplier now) {
        long heapUsed = -1;
        long heapMax = -1;
        if (replica.jvm() != null && replica.jvmRunning() && !replica.jvm().isPaused()) {
            heapUsed = metric(replica, "jvm.memory.used");
            heapMax = metric(replica, "jvm.memory.max");
        }
        long redisUsed = -1;
        long logEntries = -1;
        if (replica.redisRunning()) {
            try (redis.clients.jedis.Jedis jedis = replica.redis().connect(2_000)) {
                for (String line : jedis.info("memory").split("\r?\n")) {
                    if (line.startsWith("used_memory:")) {
                        redisUsed = Long.parseLong(line.substring("used_memory:".length()).strip());
                    }
                }
                long entries = 0;
                redis.clients.jedis.params.ScanParams params = new redis.clients.jedis.params.ScanParams().match(logPrefix + "*")
                        .count(100);
                String cursor = redis.clients.jedis.params.ScanParams.SCAN_POINTER_START;
                do {
                    redis.clients.jedis.resps.ScanResult<String> page = jedis.scan(cursor, params);
                    for (String key : page.getResult()) {
                        entries += jedis.xlen(key);
                    }
                    cursor = page.getCursor();
                } while (!cursor.equals(redis.clients.jedis.params.ScanParams.SCAN_POINTER_START));
                logEntries = entries;
            } catch (RuntimeException e) {
                // down, paused or busy: unknown this time
            }
        }
        return new RunRecord.Resources(replica.name(), now.getAsLong(), heapUsed, heapMax, redisUsed, logEntries);
    }

    /** A heap metric of the replica's actuator (area heap, summed over its pools), -1 if it does not answer. */
    private long metric(ReplicaNode replica, String name) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(replica.jvm().managementUrl()
                    .resolve(URI.create("/actuator/metrics/" + name + "?tag=area:heap")))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return -1;
            }
            JsonNode m = JSON.readTree(r.body()).path("measurements");
            return m.isEmpty() ? -1 : (long) m.get(0).path("value").asDouble(-1);
        } catch (IOException | RuntimeException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The latest view line in the replica's log, if any. */
    Optional<View> latest(ReplicaNode replica) {
        if (replica.jvm() == null) {
            return Optional.empty();
        }
        return latest(replica.jvm().log());
    }

    /** The latest view line in {@code log}, reading only what was appended since the last call. */
    Optional<View> latest(Path log) {
        LogPosition position = positions.computeIfAbsent(log, p -> new LogPosition());
        synchronized (position) {
            try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
                long length = f.length();
                if (length < position.offset) {
                    position.offset = 0;
                    position.partial = "";
                }
                while (position.offset < length) {
                    byte[] bytes = new byte[(int) Math.min(CHUNK, length - position.offset)];
                    f.seek(position.offset);
                    f.readFully(bytes);
                    position.offset += bytes.length;
                    String text = position.partial + new String(bytes, StandardCharsets.UTF_8);
                    int end = text.lastIndexOf('\n');
                    position.partial = end < 0 ? text : text.substring(end + 1);
                    View found = lastView(end < 0 ? "" : text.substring(0, end));
                    if (found != null) {
                        position.last = found;
                    }
                }
            } catch (IOException e) {
                return Optional.ofNullable(position.last);
            }
            return Optional.ofNullable(position.last);
        }
    }

    static View lastView(String text) {
        View last = null;
        Matcher m = VIEW.matcher(text);
        while (m.find()) {
            List<String> members = Arrays.stream(m.group(5).split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
            last = new View(m.group(1), m.group(2), Long.parseLong(m.group(3)), Integer.parseInt(m.group(4)), members);
        }
        return last;
    }

    /** The coordinator most running replicas name in their latest view; empty if the logs say nothing. */
    public Optional<String> coordinator() {
        Map<String, Integer> votes = new HashMap<>();
        for (ReplicaNode r : replicas) {
            if (r.jvmRunning()) {
                latest(r).ifPresent(v -> votes.merge(v.coordinator(), 1, Integer::sum));
            }
        }
        return votes.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
    }

    /** Every replica reports a view of the whole group, and the views they logged are one and the same. */
    boolean whole(int expected) {
        View first = null;
        for (ReplicaNode r : replicas) {
            if (!r.jvmRunning() || viewSize(r) != expected) {
                return false;
            }
            Optional<View> v = latest(r);
            if (v.isPresent()) {
                if (first == null) {
                    first = v.get();
                } else if (first.id() != v.get().id() || !first.coordinator().equals(v.get().coordinator())) {
                    return false;
                }
            }
        }
        return true;
    }
}
