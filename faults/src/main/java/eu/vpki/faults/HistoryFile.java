package eu.vpki.faults;

import eu.vpki.common.replication.RedisStateMachine.KeyContent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The history file of a run: gzip-compressed JSON lines, one record per line, each with a
 * {@code "kind"}: {@code run} (settings, seed, schedule) first, then {@code op}, {@code fault},
 * {@code token}, {@code state} (one per replica: digest, applied table, every managed key), and
 * {@code healed} (when the harness restored everything) followed by the {@code sample}s of the
 * replicas' health from then on, and {@code resources} samples (heap, Redis memory, command log)
 * taken through the run (both absent in older files: not measured).
 * Plain enough to read with {@code zcat | jq}; {@link #read} gives back the {@link RunRecord}.
 */
public final class HistoryFile {
    static final int FORMAT = 1;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private HistoryFile() {
    }

    public static void write(Path file, RunRecord run) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "history", ".tmp");
        try (BufferedWriter out = new BufferedWriter(new OutputStreamWriter(new GZIPOutputStream(Files.newOutputStream(tmp)),
                StandardCharsets.UTF_8))) {
            line(out, info(run.info()));
            for (Op op : run.ops()) {
                line(out, op(op));
            }
            for (FaultEvent f : run.faults()) {
                line(out, fault(f));
            }
            for (RunRecord.IssuedToken t : run.eaTokens()) {
                ObjectNode n = JSON.createObjectNode();
                n.put("kind", "token");
                n.put("token", t.token());
                n.put("ec", t.ec());
                n.put("station", t.station());
                n.put("replica", t.replica());
                line(out, n);
            }
            for (ReplicaState s : run.states()) {
                line(out, state(s));
            }
            for (RunRecord.Resources r : run.resources()) {
                ObjectNode n = JSON.createObjectNode();
                n.put("kind", "resources");
                n.put("replica", r.replica());
                n.put("atMs", r.atMs());
                n.put("heapUsed", r.heapUsed());
                n.put("heapMax", r.heapMax());
                n.put("redisUsed", r.redisUsed());
                n.put("logEntries", r.logEntries());
                line(out, n);
            }
            if (run.serving() != null) {
                ObjectNode healed = JSON.createObjectNode();
                healed.put("kind", "healed");
                healed.put("atMs", run.serving().healedMs());
                line(out, healed);
                for (RunRecord.Sample sample : run.serving().samples()) {
                    ObjectNode n = JSON.createObjectNode();
                    n.put("kind", "sample");
                    n.put("replica", sample.replica());
                    n.put("atMs", sample.atMs());
                    n.put("serving", sample.serving());
                    n.put("detail", sample.detail());
                    line(out, n);
                }
            }
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    public static RunRecord read(Path file) throws IOException {
        RunRecord.Info info = null;
        List<Op> ops = new ArrayList<>();
        List<FaultEvent> faults = new ArrayList<>();
        List<RunRecord.IssuedToken> tokens = new ArrayList<>();
        List<ReplicaState> states = new ArrayList<>();
        long healed = -1;
        List<RunRecord.Sample> samples = new ArrayList<>();
        List<RunRecord.Resources> resources = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)),
                StandardCharsets.UTF_8))) {
            String text;
            while ((text = in.readLine()) != null) {
                if (text.isBlank()) {
                    continue;
                }
                JsonNode n = JSON.readTree(text);
                switch (n.get("kind").asText()) {
                    case "run" -> info = info(n);
                    case "op" -> ops.add(op(n));
                    case "fault" -> faults.add(fault(n));
                    case "token" -> tokens.add(new RunRecord.IssuedToken(n.get("token").asText(), n.get("ec").asText(),
                            n.get("station").asText(), n.get("replica").asText()));
                    case "state" -> states.add(state(n));
                    case "healed" -> healed = n.get("atMs").asLong();
                    case "resources" -> resources.add(new RunRecord.Resources(n.get("replica").asText(), n.get("atMs").asLong(),
                            n.get("heapUsed").asLong(), n.get("heapMax").asLong(), n.get("redisUsed").asLong(),
                            n.get("logEntries").asLong()));
                    case "sample" -> samples.add(new RunRecord.Sample(n.get("replica").asText(), n.get("atMs").asLong(),
                            n.get("serving").asBoolean(), n.get("detail").asText()));
                    default -> throw new IOException("unknown record kind in " + file + ": " + n.get("kind"));
                }
            }
        }
        if (info == null) {
            throw new IOException(file + " holds no run record: not a history file");
        }
        return new RunRecord(info, ops, faults, tokens, states, healed < 0 ? null : new RunRecord.Serving(healed, samples), resources);
    }

    private static void line(BufferedWriter out, ObjectNode node) throws IOException {
        out.write(JSON.writeValueAsString(node));
        out.newLine();
    }

    // ---- run ----

    private static ObjectNode info(RunRecord.Info i) {
        ObjectNode n = JSON.createObjectNode();
        n.put("kind", "run");
        n.put("format", FORMAT);
        n.put("order", i.order());
        n.put("propagation", i.propagation());
        n.put("seed", i.seed());
        n.put("network", i.network());
        n.put("networkFaults", i.networkFaults());
        n.put("failureDetectionMs", i.failureDetectionMs());
        n.put("quietMs", i.quietMs());
        ArrayNode replicas = n.putArray("replicas");
        i.replicas().forEach(replicas::add);
        n.put("expectedMembers", i.expectedMembers());
        n.put("started", i.started().toString());
        n.put("durationMs", i.durationMs());
        ArrayNode schedule = n.putArray("schedule");
        for (FaultPlan p : i.schedule()) {
            ObjectNode pn = schedule.addObject();
            pn.put("index", p.index());
            pn.put("kind", p.kind().label());
            ArrayNode picks = pn.putArray("picks");
            p.picks().forEach(picks::add);
            pn.put("size", p.size());
            pn.put("holdMs", p.holdMs());
            pn.put("gapMs", p.gapMs());
        }
        ObjectNode settings = n.putObject("settings");
        new TreeMap<>(i.settings()).forEach(settings::put);
        return n;
    }

    private static RunRecord.Info info(JsonNode n) throws IOException {
        if (n.get("format").asInt() != FORMAT) {
            throw new IOException("history format " + n.get("format") + " is not " + FORMAT);
        }
        List<String> replicas = new ArrayList<>();
        n.get("replicas").forEach(r -> replicas.add(r.asText()));
        List<FaultPlan> schedule = new ArrayList<>();
        for (JsonNode p : n.get("schedule")) {
            List<Integer> picks = new ArrayList<>();
            p.get("picks").forEach(x -> picks.add(x.asInt()));
            schedule.add(new FaultPlan(p.get("index").asInt(), FaultKind.parse(p.get("kind").asText()), picks, p.get("size").asInt(),
                    p.get("holdMs").asLong(), p.get("gapMs").asLong()));
        }
        Map<String, String> settings = new LinkedHashMap<>();
        n.get("settings").properties().forEach(e -> settings.put(e.getKey(), e.getValue().asText()));
        return new RunRecord.Info(n.get("order").asText(), n.get("propagation").asText(), n.get("seed").asLong(),
                n.get("network").asText(), n.get("networkFaults").asBoolean(), n.get("failureDetectionMs").asLong(),
                n.get("quietMs").asLong(), replicas, n.get("expectedMembers").asInt(), Instant.parse(n.get("started").asText()),
                n.get("durationMs").asLong(), schedule, settings);
    }

    // ---- op ----

    private static ObjectNode op(Op op) {
        ObjectNode n = JSON.createObjectNode();
        n.put("kind", "op");
        n.put("id", op.id());
        n.put("type", op.type().name());
        n.put("station", op.station());
        n.put("target", op.target());
        n.put("invokedMs", op.invokedMs());
        n.put("completedMs", op.completedMs());
        n.put("outcome", op.outcome().name());
        n.put("code", op.code());
        if (op.token() != null) {
            n.put("token", op.token());
        }
        if (!op.detail().isEmpty()) {
            ObjectNode d = n.putObject("detail");
            new TreeMap<>(op.detail()).forEach(d::put);
        }
        return n;
    }

    private static Op op(JsonNode n) {
        Map<String, String> detail = new LinkedHashMap<>();
        if (n.has("detail")) {
            n.get("detail").properties().forEach(e -> detail.put(e.getKey(), e.getValue().asText()));
        }
        return new Op(n.get("id").asLong(), Op.Type.valueOf(n.get("type").asText()), n.get("station").asText(), n.get("target").asText(),
                n.get("invokedMs").asLong(), n.get("completedMs").asLong(), Op.Outcome.valueOf(n.get("outcome").asText()),
                n.get("code").asText(), n.has("token") ? n.get("token").asText() : null, detail);
    }

    // ---- fault ----

    private static ObjectNode fault(FaultEvent f) {
        ObjectNode n = JSON.createObjectNode();
        n.put("kind", "fault");
        n.put("index", f.index());
        n.put("fault", f.kind().label());
        ArrayNode targets = n.putArray("targets");
        f.targets().forEach(targets::add);
        n.put("startMs", f.startMs());
        n.put("endMs", f.endMs());
        ArrayNode steps = n.putArray("steps");
        for (FaultEvent.Step s : f.steps()) {
            steps.addObject().put("name", s.name()).put("atMs", s.atMs());
        }
        n.put("recovered", f.recovered());
        n.put("note", f.note());
        return n;
    }

    private static FaultEvent fault(JsonNode n) {
        List<String> targets = new ArrayList<>();
        n.get("targets").forEach(t -> targets.add(t.asText()));
        List<FaultEvent.Step> steps = new ArrayList<>();
        n.get("steps").forEach(s -> steps.add(new FaultEvent.Step(s.get("name").asText(), s.get("atMs").asLong())));
        return new FaultEvent(n.get("index").asInt(), FaultKind.parse(n.get("fault").asText()), targets, n.get("startMs").asLong(),
                n.get("endMs").asLong(), steps, n.get("recovered").asBoolean(), n.get("note").asText());
    }

    // ---- state ----

    private static ObjectNode state(ReplicaState s) {
        ObjectNode n = JSON.createObjectNode();
        n.put("kind", "state");
        n.put("replica", s.replica());
        if (s.error() != null) {
            n.put("error", s.error());
            return n;
        }
        n.put("digest", s.digest());
        ObjectNode applied = n.putObject("applied");
        new TreeMap<>(s.applied()).forEach(applied::put);
        ObjectNode keys = n.putObject("keys");
        for (KeyContent c : s.contents().values()) {
            ObjectNode k = keys.putObject(c.key());
            switch (c.kind()) {
                case HASH -> {
                    ObjectNode h = k.putObject("hash");
                    new TreeMap<>(c.hash()).forEach(h::put);
                }
                case SET -> {
                    ArrayNode m = k.putArray("set");
                    new java.util.TreeSet<>(c.members()).forEach(m::add);
                }
                case STRING -> k.put("string", c.value());
            }
        }
        return n;
    }

    private static ReplicaState state(JsonNode n) {
        String replica = n.get("replica").asText();
        if (n.has("error")) {
            return ReplicaState.unreadable(replica, n.get("error").asText());
        }
        Map<String, Long> applied = new LinkedHashMap<>();
        n.get("applied").properties().forEach(e -> applied.put(e.getKey(), e.getValue().asLong()));
        TreeMap<String, KeyContent> contents = new TreeMap<>();
        n.get("keys").properties().forEach(e -> {
            JsonNode k = e.getValue();
            if (k.has("hash")) {
                Map<String, String> hash = new LinkedHashMap<>();
                k.get("hash").properties().forEach(f -> hash.put(f.getKey(), f.getValue().asText()));
                contents.put(e.getKey(), new KeyContent(e.getKey(), KeyContent.Kind.HASH, hash, Set.of(), null));
            } else if (k.has("set")) {
                Set<String> members = new HashSet<>();
                k.get("set").forEach(m -> members.add(m.asText()));
                contents.put(e.getKey(), new KeyContent(e.getKey(), KeyContent.Kind.SET, Map.of(), members, null));
            } else {
                contents.put(e.getKey(), new KeyContent(e.getKey(), KeyContent.Kind.STRING, Map.of(), Set.of(), k.get("string").asText()));
            }
        });
        return new ReplicaState(replica, n.get("digest").asText(), applied, contents, null);
    }
}
