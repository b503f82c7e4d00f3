package eu.vpki.faults;

import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.replication.RedisStateMachine.KeyContent;
import eu.vpki.common.replication.StoredRecord;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Check 2: divergence after the quiet period. Compares the replicas' digests
 * ({@code RedisStateMachine.digest()}, the replication library's own definition of equal state) and
 * then every managed key: a key differs when the replicas do not all hold it with the same content.
 * The applied table (last sequence number per origin) is compared too but counted apart from the
 * keys. Each differing key is put down to the fault that could have caused it: that of the last
 * write touching the key (or the station it belongs to). Every mode promises equal replicas once the
 * faults stop (docs/replication.md), so each differing key is a violation. A replica that could not be
 * read is a violation too (it cannot be shown equal), and fewer than two readable replicas fail the
 * check (nothing was compared).
 *
 * <p>The replicas' command logs (one Redis stream per origin, {@code <applied table>:log:<origin>}) are
 * not compared: {@link ReplicaState} holds what {@code RedisStateMachine.contents()} returns, the managed
 * keys and the applied table, and the replication library gives no reader of the logs outside its
 * package ({@code CommandLog} is package-private). A hole in a log is seen only through its effects
 * (a replica behind, {@link SequenceChecker}).
 */
final class DivergenceChecker implements Checker {
    @Override
    public CheckResult check(RunRecord run) {
        List<ReplicaState> readable = run.states().stream().filter(ReplicaState::readable).toList();
        Map<String, Long> figures = new LinkedHashMap<>();
        List<Finding> findings = new ArrayList<>();
        figures.put("replicasRead", (long) readable.size());
        figures.put("distinctDigests", readable.stream().map(ReplicaState::digest).distinct().count());
        for (ReplicaState s : run.states()) {
            if (!s.readable()) {
                findings.add(new Finding(Check.DIVERGENCE, -1, "replica " + s.replica(),
                        "could not be read (" + s.error() + "): it cannot be shown equal to the others", true, -1));
            }
        }
        figures.put("unreadableReplicas", (long) findings.size());
        if (readable.size() < 2) {
            findings.add(new Finding(Check.DIVERGENCE, -1, "replicas", readable.size() + " of " + run.states().size()
                    + " replicas could be read: nothing to compare", true, -1));
            return new CheckResult(Check.DIVERGENCE, findings, figures, "");
        }
        Attribution attribution = new Attribution(run.faults());
        Writes writes = new Writes(run.ops());
        Set<String> keys = new TreeSet<>();
        readable.forEach(s -> keys.addAll(s.contents().keySet()));
        String appliedTable = appliedTableKey(readable);
        long differing = 0;
        for (String key : keys) {
            Map<KeyContent, List<String>> groups = new java.util.HashMap<>();
            for (ReplicaState s : readable) {
                groups.computeIfAbsent(s.contents().get(key), d -> new ArrayList<>()).add(s.replica());
            }
            if (groups.size() == 1) {
                continue;
            }
            Map<String, List<String>> holders = new TreeMap<>();
            groups.forEach((content, replicas) -> holders.put(describe(content) + (holders.containsKey(describe(content)) ? "'" : ""),
                    replicas));
            if (key.equals(appliedTable)) {
                figures.put("appliedTableDiffers", 1L);
                findings.add(new Finding(Check.DIVERGENCE, -1, key, "applied tables differ: " + holders, true, -1));
                continue;
            }
            differing++;
            findings.add(new Finding(Check.DIVERGENCE, attribution.affecting(lastWrite(key, writes, readable)), key,
                    "holders: " + holders, true, -1));
        }
        if (differing == 0 && !figures.containsKey("appliedTableDiffers") && figures.get("distinctDigests") > 1) {
            // the contents may leave keys out (the scale mode's fleet fill): the digests cover every managed key
            Map<String, List<String>> byDigest = new TreeMap<>();
            readable.forEach(s -> byDigest.computeIfAbsent(s.digest(), d -> new ArrayList<>()).add(s.replica()));
            differing++;
            findings.add(new Finding(Check.DIVERGENCE, -1, "digests", "the replicas' digests differ outside the recorded contents: "
                    + byDigest.values(), true, -1));
        }
        figures.put("keys", (long) keys.size());
        figures.put("differingKeys", differing);
        figures.putIfAbsent("appliedTableDiffers", 0L);
        return new CheckResult(Check.DIVERGENCE, findings, figures, "");
    }

    /** The applied table is the one key every replica holds outside the fleet prefixes. */
    private static String appliedTableKey(List<ReplicaState> states) {
        for (ReplicaState s : states) {
            for (String key : s.contents().keySet()) {
                if (!FleetKeys.KEYSPACE.isManaged(key)) {
                    return key;
                }
            }
        }
        return FleetKeys.KEYSPACE.appliedTableKey();
    }

    /** When the last write that touched {@code key} (or its station) completed; 0 if none is known. */
    private static long lastWrite(String key, Writes writes, List<ReplicaState> states) {
        String station = null;
        if (key.startsWith(FleetKeys.STATION)) {
            station = key.substring(FleetKeys.STATION.length());
        } else if (key.startsWith(FleetKeys.STATION_EC)) {
            station = key.substring(FleetKeys.STATION_EC.length());
        } else if (key.startsWith(FleetKeys.STATION_PERMISSIONS)) {
            station = key.substring(FleetKeys.STATION_PERMISSIONS.length());
        } else if (key.startsWith(FleetKeys.EC)) {
            for (ReplicaState s : states) {
                String holder = StoredRecord.from(s.hash(key)).map(r -> r.fields().get("station")).orElse(null);
                if (holder != null) {
                    station = holder;
                    break;
                }
            }
        }
        if (station == null) {
            return writes.byStation().values().stream().flatMap(List::stream).filter(o -> o.type() == Op.Type.REGISTER)
                    .mapToLong(Op::completedMs).max().orElse(0);
        }
        boolean ec = !key.startsWith(FleetKeys.STATION) && !key.startsWith(FleetKeys.STATION_PERMISSIONS);
        return writes.of(station).stream().filter(o -> ec ? o.type().enrolment() : o.type().operatorWrite())
                .mapToLong(Op::completedMs).max().orElse(0);
    }

    /** A short, comparable description of a key's content on one replica. */
    static String describe(KeyContent c) {
        if (c == null) {
            return "(missing)";
        }
        return switch (c.kind()) {
            case HASH -> {
                String fields = Integer.toHexString(new TreeMap<>(c.hash()).toString().hashCode());
                yield StoredRecord.from(c.hash()).map(rec -> "v" + rec.version() + "@" + rec.origin() + (rec.deleted() ? " deleted" : ""))
                        .orElse("hash") + statusOf(c) + " #" + fields;
            }
            case SET -> "set of " + c.members().size() + " #" + Integer.toHexString(new TreeSet<>(c.members()).hashCode());
            case STRING -> "string #" + Integer.toHexString(c.value().hashCode());
        };
    }

    private static String statusOf(KeyContent c) {
        String status = c.hash().get("status");
        return status == null ? "" : " " + status;
    }
}
