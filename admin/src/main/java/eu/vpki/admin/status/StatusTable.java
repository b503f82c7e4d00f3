package eu.vpki.admin.status;

import eu.vpki.admin.Tables;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The whole cluster in one table, from every replica's own report: one row per replica (its state, view, lag,
 * hold-back, command log, Redis memory, certificates), the reason of every replica that does not serve, the
 * replicas' applied positions per origin side by side, and where the replicas disagree on the view.
 * Plain text, fixed-width columns.
 */
public final class StatusTable {
    private static final long DAY = 86_400;

    private StatusTable() {
    }

    /** The table of {@code reports}, in their order. */
    public static String render(List<ReplicaReport> reports) {
        StringBuilder out = new StringBuilder();
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("REPLICA", "STATE", "VIEW", "MEMBERS", "COORDINATOR", "BEHIND", "HELD", "QUEUED", "LOG", "REDIS",
                "CERTIFICATES (days left)"));
        for (ReplicaReport r : reports) {
            if (r.error() != null) {
                rows.add(List.of(r.url().toString(), "unreachable", "-", "-", "-", "-", "-", "-", "-", "-", "-"));
                continue;
            }
            rows.add(List.of(r.replicaId(), r.state(), r.view(), r.members().size() + "/" + r.expected(), r.coordinator(),
                    number(r.missing()), number(r.held()), number(r.queued()), number(r.logCommands()), memory(r.redisUsed(), r.redisMax()),
                    certificates(r.certificates())));
        }
        table(out, rows);
        List<String> reasons = new ArrayList<>();
        for (ReplicaReport r : reports) {
            if (!r.serving()) {
                reasons.add("  " + (r.error() == null ? r.replicaId() : r.url().toString()) + ": " + r.detail());
            }
        }
        if (!reasons.isEmpty()) {
            out.append("\nnot serving:\n");
            reasons.forEach(line -> out.append(line).append('\n'));
        }
        positions(out, reports);
        Set<String> views = reports.stream().filter(r -> r.error() == null && !r.view().isEmpty()).map(ReplicaReport::view)
                .collect(Collectors.toCollection(TreeSet::new));
        if (views.size() > 1) {
            out.append("\nthe replicas do not agree on the view: ").append(String.join(", ", views)).append('\n');
        }
        long serving = reports.stream().filter(ReplicaReport::serving).count();
        out.append('\n').append(serving).append(" of ").append(reports.size()).append(" replicas serve\n");
        return out.toString();
    }

    /**
     * Applied positions per origin, one column per origin that is the current incarnation of a member (the others no
     * longer move), with a line for the older origins where the replicas disagree on them.
     */
    private static void positions(StringBuilder out, List<ReplicaReport> reports) {
        List<ReplicaReport> read = reports.stream().filter(r -> r.error() == null).toList();
        if (read.isEmpty()) {
            return;
        }
        Set<String> current = new LinkedHashSet<>();
        read.forEach(r -> {
            if (!r.origin().isEmpty()) {
                current.add(r.origin());
            }
        });
        Set<String> all = new TreeSet<>();
        read.forEach(r -> all.addAll(r.applied().keySet()));
        // a replica that did not answer: its latest incarnation, as the others applied it
        Set<String> answered = read.stream().map(ReplicaReport::replicaId).collect(Collectors.toSet());
        Map<String, String> latestOfOthers = new java.util.TreeMap<>();
        for (String origin : all) {
            String replica = replicaOf(origin);
            if (!answered.contains(replica)) {
                latestOfOthers.merge(replica, origin, (a, b) -> epochOrder(a, b) >= 0 ? a : b);
            }
        }
        current.addAll(latestOfOthers.values());
        List<String> columns = new ArrayList<>(current);
        List<List<String>> rows = new ArrayList<>();
        List<String> header = new ArrayList<>();
        header.add("APPLIED");
        header.addAll(columns);
        rows.add(header);
        for (ReplicaReport r : read) {
            List<String> row = new ArrayList<>();
            row.add(r.replicaId());
            columns.forEach(origin -> row.add(r.applied().containsKey(origin) ? number(r.applied().get(origin)) : "-"));
            rows.add(row);
        }
        out.append('\n');
        table(out, rows);
        List<String> differing = all.stream().filter(o -> !current.contains(o))
                .filter(o -> read.stream().map(r -> r.applied().getOrDefault(o, 0L)).distinct().count() > 1).toList();
        long older = all.stream().filter(o -> !current.contains(o)).count();
        if (older > 0) {
            out.append(older).append(" earlier origin(s) of restarted replicas: ")
                    .append(differing.isEmpty() ? "every replica applied the same of them" : "replicas differ on " + differing)
                    .append('\n');
        }
    }

    /** Orders two origins of one replica by epoch (base 36, so a longer one is later). */
    private static int epochOrder(String a, String b) {
        return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
    }

    /** The replica id of an origin {@code <replicaId>~<epoch>}. */
    static String replicaOf(String origin) {
        int tilde = origin.lastIndexOf('~');
        return tilde < 0 ? origin : origin.substring(0, tilde);
    }

    private static String certificates(Map<String, Long> certificates) {
        if (certificates.isEmpty()) {
            return "-";
        }
        return certificates.entrySet().stream().map(c -> c.getKey() + " " + Math.floorDiv(c.getValue(), DAY))
                .collect(Collectors.joining(", "));
    }

    static String number(long value) {
        return value < 0 ? "?" : String.format(Locale.ROOT, "%,d", value);
    }

    static String memory(long used, long max) {
        if (used < 0) {
            return "?";
        }
        return bytes(used) + (max > 0 ? " / " + bytes(max) : "");
    }

    static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }

    private static void table(StringBuilder out, List<List<String>> rows) {
        out.append(Tables.render(rows));
    }
}
