package eu.vpki.faults;

import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.replication.RedisStateMachine.KeyContent;
import eu.vpki.common.replication.StoredRecord;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Builds a {@link RunRecord} by hand for the checkers' unit tests: operations, faults and each
 * replica's keys in the fleet's real record format (FleetKeys, StoredRecord's reserved fields).
 */
final class TestRun {
    static final String OPERATOR = "op-x";
    static final String PERMS = "36/b:01fffc,37/b:01ffffff";
    static final String PERMS_2 = "36/b:01fffc,37/b:01ffffff,137/b:01e0";

    private final boolean sync;
    private final List<String> replicas;
    private final List<Op> ops = new ArrayList<>();
    private final List<FaultEvent> faults = new ArrayList<>();
    private final List<FaultPlan> schedule = new ArrayList<>();
    private final List<RunRecord.IssuedToken> tokens = new ArrayList<>();
    private final Map<String, TreeMap<String, KeyContent>> keys = new LinkedHashMap<>();
    private final Map<String, Map<String, Long>> applied = new HashMap<>();
    private final Map<String, String> unreadable = new HashMap<>();
    private long healedMs = -1;
    private final List<RunRecord.Sample> samples = new ArrayList<>();
    private final List<RunRecord.Resources> resources = new ArrayList<>();
    private long quietMs = 30_000;
    private long ids;

    TestRun(boolean sync, String... replicas) {
        this.sync = sync;
        this.replicas = List.of(replicas);
        for (String r : replicas) {
            keys.put(r, new TreeMap<>());
            applied.put(r, new HashMap<>());
        }
    }

    /** Records an operation; {@code detail} as name, value pairs. */
    Op op(Op.Type type, String station, String target, long invoked, long completed, Op.Outcome outcome, String code, String token,
          String... detail) {
        Map<String, String> d = new LinkedHashMap<>();
        for (int i = 0; i < detail.length; i += 2) {
            d.put(detail[i], detail[i + 1]);
        }
        Op op = new Op(++ids, type, station, target, invoked, completed, outcome, code, token, d);
        ops.add(op);
        return op;
    }

    Op acked(Op.Type type, String station, String target, long invoked, long completed, String token, String... detail) {
        return op(type, station, target, invoked, completed, Op.Outcome.ACK, "ok", token, detail);
    }

    /** A registration acknowledged, the station ACTIVE with {@link #PERMS} on every replica. */
    Op registered(String station, long at, String token) {
        Op op = acked(Op.Type.REGISTER, station, "operator-0", at, at + 10, token, "status", "ACTIVE", "permissions", PERMS);
        for (String r : replicas) {
            station(r, station, "ACTIVE", PERMS, at);
            member(r, station);
        }
        return op;
    }

    void station(String replica, String station, String status, String permissions, long version) {
        Map<String, String> h = new HashMap<>();
        h.put(StoredRecord.VERSION_FIELD, String.format("%019d", version));
        h.put(StoredRecord.ORIGIN_FIELD, "operator-0");
        h.put("operator", OPERATOR);
        h.put("id", station);
        h.put("status", status);
        h.put("permissions", permissions);
        put(replica, FleetKeys.station(station), h);
    }

    /** Sets the canonical key (compressed, hex) in the station's record on {@code replica}. */
    void key(String replica, String station, String key) {
        Map<String, String> h = new HashMap<>(keys.get(replica).get(FleetKeys.station(station)).hash());
        h.put("key", key);
        put(replica, FleetKeys.station(station), h);
    }

    /** The station's permissions register (written by a permission change), as the apply script stores it. */
    void permissions(String replica, String station, String permissions, long version) {
        Map<String, String> h = new HashMap<>();
        h.put(StoredRecord.VERSION_FIELD, String.format("%019d", version));
        h.put(StoredRecord.ORIGIN_FIELD, "operator-1");
        h.put("permissions", permissions);
        put(replica, FleetKeys.stationPermissions(station), h);
    }

    void member(String replica, String station) {
        String key = FleetKeys.operator(OPERATOR);
        KeyContent old = keys.get(replica).get(key);
        Set<String> members = new TreeSet<>(old == null ? Set.of() : old.members());
        members.add(station);
        keys.get(replica).put(key, new KeyContent(key, KeyContent.Kind.SET, Map.of(), members, null));
    }

    void ec(String replica, String ec, String station, String status, long version) {
        Map<String, String> h = new HashMap<>();
        h.put(StoredRecord.VERSION_FIELD, String.format("%019d", version));
        h.put(StoredRecord.ORIGIN_FIELD, "ea-0");
        h.put("station", station);
        h.put("status", status);
        put(replica, FleetKeys.EC + ec, h);
    }

    void pointer(String replica, String station, String ec, long version) {
        Map<String, String> h = new HashMap<>();
        h.put(StoredRecord.VERSION_FIELD, String.format("%019d", version));
        h.put(StoredRecord.ORIGIN_FIELD, "ea-0");
        h.put("ec", ec);
        put(replica, FleetKeys.stationEc(station), h);
    }

    void remove(String replica, String key) {
        keys.get(replica).remove(key);
    }

    /** The harness healed everything at {@code at}; serving samples follow. */
    void healed(long at) {
        healedMs = at;
    }

    /** One health probe of a replica: serving (UP) or not, with what it answered. */
    void sample(String replica, long at, boolean serving, String detail) {
        samples.add(new RunRecord.Sample(replica, at, serving, detail));
    }

    /** Every replica probed every second from {@code from} to {@code to}, each answering UP. */
    void servingThroughout(long from, long to) {
        for (long t = from; t <= to; t += 1_000) {
            for (String r : replicas) {
                sample(r, t, true, "");
            }
        }
    }

    /** One resource sample of a replica (-1 for what could not be read). */
    void resources(String replica, long at, long heapUsed, long heapMax, long redisUsed, long logEntries) {
        resources.add(new RunRecord.Resources(replica, at, heapUsed, heapMax, redisUsed, logEntries));
    }

    /** The run's quiet period (30 s unless set). */
    void quiet(long ms) {
        quietMs = ms;
    }

    /** The replica's Redis could not be read at the end of the run. */
    void unreadable(String replica, String error) {
        unreadable.put(replica, error);
    }

    void applied(String replica, String origin, long seq) {
        applied.get(replica).put(origin, seq);
    }

    void appliedEverywhere(String origin, long seq) {
        replicas.forEach(r -> applied(r, origin, seq));
    }

    void token(String token, String ec, String station, String replica) {
        tokens.add(new RunRecord.IssuedToken(token, ec, station, replica));
    }

    /** A fault with the given steps (name, at-ms pairs). */
    FaultEvent fault(FaultKind kind, List<String> targets, long start, long end, Object... steps) {
        List<FaultEvent.Step> s = new ArrayList<>();
        for (int i = 0; i < steps.length; i += 2) {
            s.add(new FaultEvent.Step((String) steps[i], ((Number) steps[i + 1]).longValue()));
        }
        FaultEvent f = new FaultEvent(faults.size(), kind, targets, start, end, s, true, "");
        faults.add(f);
        schedule.add(new FaultPlan(f.index(), kind, List.of(0, 1, 2), 1, 1000, 1000));
        return f;
    }

    private void put(String replica, String key, Map<String, String> hash) {
        keys.get(replica).put(key, new KeyContent(key, KeyContent.Kind.HASH, hash, Set.of(), null));
    }

    RunRecord build() {
        List<ReplicaState> states = new ArrayList<>();
        for (String r : replicas) {
            if (unreadable.containsKey(r)) {
                states.add(ReplicaState.unreadable(r, unreadable.get(r)));
                continue;
            }
            TreeMap<String, KeyContent> contents = new TreeMap<>(keys.get(r));
            Map<String, String> table = new HashMap<>();
            applied.get(r).forEach((o, s) -> table.put(o, String.format("%019d", s)));
            if (!table.isEmpty()) {
                contents.put(FleetKeys.KEYSPACE.appliedTableKey(),
                        new KeyContent(FleetKeys.KEYSPACE.appliedTableKey(), KeyContent.Kind.HASH,
                                table, Set.of(), null));
            }
            states.add(new ReplicaState(r, Integer.toHexString(contents.hashCode()), applied.get(r), contents, null));
        }
        RunRecord.Info info = new RunRecord.Info("TOTAL", sync ? "SYNC" : "ASYNC", 1, "test", true, 20_000, quietMs, replicas,
                replicas.size(), Instant.EPOCH, 100_000, schedule, Map.of("operatorId", OPERATOR));
        return new RunRecord(info, ops, faults, tokens, states, healedMs < 0
                ? null
                : new RunRecord.Serving(healedMs,
                        samples.stream().sorted(java.util.Comparator.comparingLong(RunRecord.Sample::atMs)).toList()),
                resources);
    }
}
