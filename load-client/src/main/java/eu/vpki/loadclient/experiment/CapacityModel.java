package eu.vpki.loadclient.experiment;

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
 * <p>EC demand on the busiest EA host (its JVM and its redis-server) when ECs are spread over
 * {@code n} EA replicas in a group of {@code N} members (EA and Operator replicas): every replica
 * issues 1/n of the ECs ({@code origin / n}), applies every EC ({@code perReplica}), and in TOTAL
 * order the sequencer relays every EC to every member ({@code perMember * N}). Fitted by least
 * squares on the replicas experiment's runs per mode. AT demand: the AA's per AT, the EA's validation
 * per AT (spread over the EA replicas). All pure arithmetic: {@code CapacityModelTest} checks it by hand.
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
     * EC demand on the busiest EA host, ms of CPU per EC of the whole group: {@code origin / n + perReplica +
     * perMember * N}.
     *
     * @param points the runs it was fitted on
     */
    public record EcDemand(String mode, double origin, double perReplica, double perMember, int points) {
        public double at(int eaReplicas, int members) {
            return origin / eaReplicas + perReplica + perMember * members;
        }
    }

    /** One measured EC demand: EA replicas, group members, ms of CPU per EC on the busiest EA host. */
    public record EcPoint(int eaReplicas, int members, double demandMs) {
    }

    /**
     * Least squares of {@code origin / n + perReplica + perMember * N} over the points: all three terms with at
     * least four distinct replica counts (and TOTAL order, where the sequencer's relaying grows with N), else
     * without {@code perMember}; with one replica count only, a constant.
     */
    public static EcDemand fit(String mode, Collection<EcPoint> points, boolean sequencer) {
        List<EcPoint> p = List.copyOf(points);
        if (p.isEmpty()) {
            throw new IllegalArgumentException("no EC measurement for " + mode);
        }
        long distinct = p.stream().mapToInt(EcPoint::eaReplicas).distinct().count();
        if (distinct == 1) {
            return new EcDemand(mode, 0, p.stream().mapToDouble(EcPoint::demandMs).average().orElseThrow(), 0, p.size());
        }
        // three terms need a fourth replica count: with three, an exact fit of noise (a negative term) would pass for a model
        boolean three = sequencer && distinct >= 4;
        int k = three ? 3 : 2;
        double[][] x = new double[p.size()][k];
        double[] y = new double[p.size()];
        for (int i = 0; i < p.size(); i++) {
            x[i][0] = 1.0 / p.get(i).eaReplicas();
            x[i][1] = 1;
            if (three) {
                x[i][2] = p.get(i).members();
            }
            y[i] = p.get(i).demandMs();
        }
        double[] b = leastSquares(x, y);
        return new EcDemand(mode, b[0], b[1], three ? b[2] : 0, p.size());
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
     * The paper's group layout scaled to {@code groups}: a group is an EA replica, an Operator replica and an AA
     * (and clients); returns {EC/s, AT/s} at saturation for the instance types of the EA, Operator and AA hosts.
     *
     * @param ec           EC demand of the mode on the busiest EA host
     * @param operatorEcMs ms of CPU per EC on an Operator host (it applies every EC)
     * @param aaAtMs       ms of CPU per AT on an AA host
     * @param eaAtMs       ms of CPU per AT on the EA hosts together (validation; spread over the replicas)
     * @param speed        how much work a vCPU there does against a core here (1: the same)
     */
    public static double[] groups(int groups, EcDemand ec, double operatorEcMs, double aaAtMs, double eaAtMs, Instance ea,
                                  Instance operator, Instance aa, double speed) {
        int members = 2 * groups;
        double ecPerEaHost = saturation(ea.cores() * speed, ec.at(groups, members));
        double ecPerOperator = saturation(operator.cores() * speed, operatorEcMs);
        double ecs = Math.min(ecPerEaHost, ecPerOperator);
        double atByAas = groups * saturation(aa.cores() * speed, aaAtMs);
        double atByEas = groups * saturation(ea.cores() * speed, eaAtMs);
        return new double[]{ecs, Math.min(atByAas, atByEas)};
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
