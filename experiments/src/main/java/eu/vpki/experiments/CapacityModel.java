package eu.vpki.experiments;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The capacity model (docs/experiments.md, "Capacity model"): the operational laws on CPU demands
 * measured by the experiments. A host with {@code c} cores serving operations that each take
 * {@code D} ms of its CPU saturates at {@code c * 1000 / D} operations/s (utilisation law); a
 * deployment saturates at its busiest host's limit (bottleneck law). Before saturation an operation
 * takes its local processing time, plus the replication round trips its mode waits for, plus the
 * queueing at the bottleneck host (M/M/1: {@code S * rho / (1 - rho)}, S the host's service time).
 *
 * <p>EC demand on an EA host (its JVM and its redis-server) when ECs are spread over {@code n} EA
 * replicas in a group of {@code N} members (EA and Operator replicas): every replica issues 1/n of the
 * ECs ({@code origin / n}) and applies every EC ({@code perReplica}); an Operator host applies every
 * EC. In TOTAL order the coordinator is also the sequencer: every command is forwarded to it and it
 * sends each to every member, {@code fixed + perMember x (N - 1)} more on that one host, which grows
 * with the group ({@link Sequencer}). Fitted by least squares on the replicas experiment's runs per
 * mode. AT demand: the AA's per AT, the EA's validation per AT (spread over the EA replicas). All
 * pure arithmetic, deterministic: {@code CapacityModelTest} checks it by hand and checks the scaling
 * shape (total order's EC/s falls with groups, FIFO's does not).
 */
public final class CapacityModel {
    private CapacityModel() {
    }

    /**
     * An instance type as the model sees it: its vCPUs and the share of them it can sustain
     * (burstable types: their CPU credit baseline).
     */
    public record Instance(String name, int vcpus, double sustained) {
        public Instance {
            if (vcpus < 1 || !(sustained > 0) || sustained > 1) {
                throw new IllegalArgumentException("an instance needs vCPUs and a sustained share in (0, 1]");
            }
        }

        /** The cores' worth of CPU it sustains. */
        public double cores() {
            return vcpus * sustained;
        }
    }

    /**
     * The Terraform deployment's instance types (terraform/variables.tf: c6i.large for EA and AA, t3.medium for
     * the Operator, RCA, DC) and the larger c6i sizes; vCPUs and the t3 baseline (20 % per vCPU) as AWS publishes
     * them, not measured.
     */
    public static final List<Instance> INSTANCES = List.of(new Instance("c6i.large", 2, 1.0), new Instance("c6i.xlarge", 4, 1.0),
            new Instance("c6i.2xlarge", 8, 1.0), new Instance("t3.medium", 2, 0.2));

    /**
     * EC demand on an EA host that is not the sequencer, ms of CPU per EC of the whole group: {@code origin / n +
     * perReplica} (it issues 1/n of the ECs and applies every one; what it sends and receives per EC is spread the same
     * way and is part of both terms).
     *
     * @param points the runs it was fitted on
     */
    public record EcDemand(String mode, double origin, double perReplica, int points) {
        public double at(int eaReplicas) {
            return origin / eaReplicas + perReplica;
        }
    }

    /** One measured EC demand: EA replicas, group members, ms of CPU per EC on an EA host. */
    public record EcPoint(int eaReplicas, int members, double demandMs) {
    }

    /**
     * TOTAL order's sequencer (JGroups SEQUENCER: every member forwards its commands to the coordinator, which sends each
     * one to every member): what the coordinator's host spends per command of the group beyond what its role costs the
     * other hosts, {@code fixedMs + perMemberMs x (N - 1)} for a group of N members. It grows with the group while every
     * other host's demand does not: the model's reason why total order does not scale.
     *
     * @param points the runs it was fitted on (0: not measured)
     */
    public record Sequencer(double fixedMs, double perMemberMs, int points) {
        /** No sequencer (FIFO order: each member sends its own commands). */
        public static final Sequencer NONE = new Sequencer(0, 0, 0);

        public double extraMs(int members) {
            return fixedMs + perMemberMs * (members - 1);
        }
    }

    /** One measured sequencer cost: group members, the coordinator's host's CPU ms per EC minus its role's mean elsewhere. */
    public record RelayPoint(int members, double extraMs) {
    }

    /**
     * A mode's EC model: EA hosts, Operator hosts (they apply every EC), and in TOTAL order the sequencer on the
     * coordinator, an Operator host or an EA host (the group's first member: the launcher starts the Operators first).
     */
    public record EcModel(String mode, EcDemand ea, double operatorMs, Sequencer sequencer, boolean sequencerOnOperator) {
    }

    /** What {@code groups} groups sustain: EC/s with the host that bounds it, and AT/s. */
    public record GroupPrediction(double ecPerSecond, String ecBottleneck, double atPerSecond) {
    }

    /**
     * Least squares of {@code origin / n + perReplica} over the points; with one replica count only, a constant.
     */
    public static EcDemand fit(String mode, Collection<EcPoint> points) {
        List<EcPoint> p = List.copyOf(points);
        if (p.isEmpty()) {
            throw new IllegalArgumentException("no EC measurement for " + mode);
        }
        if (p.stream().mapToInt(EcPoint::eaReplicas).distinct().count() == 1) {
            return new EcDemand(mode, 0, p.stream().mapToDouble(EcPoint::demandMs).average().orElseThrow(), p.size());
        }
        double[][] x = new double[p.size()][];
        double[] y = new double[p.size()];
        for (int i = 0; i < p.size(); i++) {
            x[i] = new double[]{1.0 / p.get(i).eaReplicas(), 1};
            y[i] = p.get(i).demandMs();
        }
        double[] b = leastSquares(x, y);
        return new EcDemand(mode, b[0], b[1], p.size());
    }

    /**
     * Least squares of {@code fixed + perMember x (N - 1)} over the measured sequencer costs; with one group size only, the
     * mean as a fixed cost (the growth is then not measured); none: {@link Sequencer#NONE}.
     */
    public static Sequencer fitSequencer(Collection<RelayPoint> points) {
        List<RelayPoint> p = List.copyOf(points);
        if (p.isEmpty()) {
            return Sequencer.NONE;
        }
        if (p.stream().mapToInt(RelayPoint::members).distinct().count() == 1) {
            return new Sequencer(p.stream().mapToDouble(RelayPoint::extraMs).average().orElseThrow(), 0, p.size());
        }
        double[] b = line(p.stream().map(r -> new double[]{r.members() - 1, r.extraMs()}).toList());
        return new Sequencer(b[0], b[1], p.size());
    }

    /** The least-squares line {@code y = b[0] + b[1] x} through (x, y) points of two x values or more. */
    public static double[] line(List<double[]> points) {
        double[][] x = new double[points.size()][];
        double[] y = new double[points.size()];
        for (int i = 0; i < points.size(); i++) {
            x[i] = new double[]{1, points.get(i)[0]};
            y[i] = points.get(i)[1];
        }
        return leastSquares(x, y);
    }

    /** Ordinary least squares by the normal equations (a few unknowns), solved by Gaussian elimination with pivoting. */
    static double[] leastSquares(double[][] x, double[] y) {
        int k = x[0].length;
        double[][] a = new double[k][k + 1];
        for (int r = 0; r < x.length; r++) {
            for (int i = 0; i < k; i++) {
                for (int j = 0; j < k; j++) {
                    a[i][j] += x[r][i] * x[r][j];
                }
                a[i][k] += x[r][i] * y[r];
            }
        }
        for (int c = 0; c < k; c++) {
            int pivot = c;
            for (int r = c + 1; r < k; r++) {
                if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) {
                    pivot = r;
                }
            }
            double[] t = a[c];
            a[c] = a[pivot];
            a[pivot] = t;
            if (Math.abs(a[c][c]) < 1e-12) {
                throw new IllegalArgumentException("the measurements do not determine the model (singular system)");
            }
            for (int r = 0; r < k; r++) {
                if (r != c) {
                    double f = a[r][c] / a[c][c];
                    for (int j = c; j <= k; j++) {
                        a[r][j] -= f * a[c][j];
                    }
                }
            }
        }
        double[] b = new double[k];
        for (int i = 0; i < k; i++) {
            b[i] = a[i][k] / a[i][i];
        }
        return b;
    }

    /** Operations/s at which a host of {@code cores} saturates when each operation takes {@code demandMs} of its CPU. */
    public static double saturation(double cores, double demandMs) {
        if (!(demandMs > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        return cores * 1000 / demandMs;
    }

    /**
     * Latency at {@code rate} operations/s: {@code localMs + waitMs + S * rho / (1 - rho)}, S = {@code demandMs / cores}
     * the bottleneck host's service time, rho = rate / its saturation; infinite at or beyond saturation.
     */
    public static double latency(double localMs, double waitMs, double demandMs, double cores, double rate) {
        double rho = rate / saturation(cores, demandMs);
        if (rho >= 1) {
            return Double.POSITIVE_INFINITY;
        }
        double service = demandMs / cores;
        return localMs + waitMs + service * rho / (1 - rho);
    }

    /**
     * What a write waits for beyond local processing, in ms, for a writer in {@code origin} with the group's members
     * in {@code members} and the TOTAL order sequencer (the JGroups coordinator) in {@code sequencer}:
     * FIFO + ASYNC nothing; FIFO + SYNC the round trip to the farthest member; TOTAL + ASYNC the round trip to the
     * sequencer (the write comes back through it); TOTAL + SYNC to the sequencer, from it to each member, and that
     * member's answer back, for the farthest member. Inside a region the model adds nothing (about a millisecond in a
     * real data centre, within the local latency's noise here).
     */
    public static double replicationWaitMs(String order, String propagation, Region origin, Region sequencer, Collection<Region> members) {
        boolean sync = propagation.equals("SYNC");
        boolean total = order.equals("TOTAL");
        double worst = 0;
        if (!total) {
            if (sync) {
                for (Region m : members) {
                    worst = Math.max(worst, ms(origin, m) + ms(m, origin));
                }
            }
            return worst;
        }
        double viaSequencer = ms(origin, sequencer);
        if (!sync) {
            return viaSequencer + ms(sequencer, origin);
        }
        for (Region m : members) {
            worst = Math.max(worst, viaSequencer + ms(sequencer, m) + ms(m, origin));
        }
        return worst;
    }

    private static double ms(Region from, Region to) {
        return from.oneWayTo(to).toMillis();
    }

    /** The relative error of a prediction against a measurement, in percent (signed: positive when it predicts too much). */
    public static double errorPercent(double predicted, double measured) {
        return measured == 0 ? Double.NaN : (predicted - measured) / measured * 100;
    }

    /**
     * The paper's group layout scaled to {@code groups}: a group is an EA replica, an Operator replica and an AA (and
     * clients), so N = 2 x groups members. EC/s is the lowest of the EA hosts', the Operator hosts' and, in TOTAL order,
     * the sequencer's host's limit (its role's demand plus {@link Sequencer#extraMs}); AT/s grows with the groups (each
     * brings an AA and an EA replica).
     *
     * @param aaAtMs ms of CPU per AT on an AA host
     * @param eaAtMs ms of CPU per AT on the EA hosts together (validation; spread over the replicas)
     * @param speed  how much work a vCPU there does against a core here (1: the same)
     */
    public static GroupPrediction groups(int groups, EcModel ec, double aaAtMs, double eaAtMs, Instance ea, Instance operator, Instance aa,
                                         double speed) {
        int members = 2 * groups;
        double eaDemand = ec.ea().at(groups);
        double ecs = saturation(ea.cores() * speed, eaDemand);
        String bottleneck = "EA host";
        double byOperator = saturation(operator.cores() * speed, ec.operatorMs());
        if (byOperator < ecs) {
            ecs = byOperator;
            bottleneck = "Operator host";
        }
        if (ec.sequencer().points() > 0) {
            Instance host = ec.sequencerOnOperator() ? operator : ea;
            double demand = (ec.sequencerOnOperator() ? ec.operatorMs() : eaDemand) + ec.sequencer().extraMs(members);
            double bySequencer = saturation(host.cores() * speed, demand);
            if (bySequencer < ecs) {
                ecs = bySequencer;
                bottleneck = "sequencer (" + (ec.sequencerOnOperator() ? "Operator" : "EA") + " host)";
            }
        }
        double atByAas = groups * saturation(aa.cores() * speed, aaAtMs);
        double atByEas = groups * saturation(ea.cores() * speed, eaAtMs);
        return new GroupPrediction(ecs, bottleneck, Math.min(atByAas, atByEas));
    }

    /** {@code values} as a list (for tables). */
    static List<String> cells(Object... values) {
        List<String> out = new ArrayList<>();
        for (Object v : values) {
            out.add(v instanceof Double d ? format(d) : String.valueOf(v));
        }
        return out;
    }

    static String format(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        if (Double.isInfinite(v)) {
            return "saturated";
        }
        return Math.abs(v) >= 100 ? String.format(java.util.Locale.ROOT, "%,.0f", v) : String.format(java.util.Locale.ROOT, "%.2f", v);
    }
}
