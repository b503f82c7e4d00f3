package eu.vpki.experiments;

import java.util.List;

/**
 * What the paper we follow printed ("Vehicular PKI Scalability-Consistency Trade-Offs in Large Scale
 * Distributed Scenarios", Cincilla, Hicham, Charles; HAL hal-01576026), as read from its figures and
 * summarised in issue #19: approximate values, with the words that qualify them ("about", "a little
 * above"). Each experiment's report puts its own measurements beside the rows of its figures.
 */
public final class PaperValues {
    /** One value the paper shows. */
    public record PaperValue(String figures, String experiment, String quantity, String setting, String value) {
    }

    public static final String CENTRALISED = "centralised";
    public static final String DISTRIBUTED = "replicas";
    public static final String GEOGRAPHIC = "geo";

    /** The paper's reference, as cited in every report. */
    public static final String CITATION = "Cincilla, Hicham, Charles, \"Vehicular PKI Scalability-Consistency Trade-Offs in Large "
            + "Scale Distributed Scenarios\" (HAL hal-01576026)";

    /** AT throughput at saturation, one machine per authority, by machine size (Figs. 3-5). */
    public static final PaperValue AT_SATURATION_2_VCPU = new PaperValue("Figs. 3-5", CENTRALISED, "AT throughput at saturation",
            "2 vCPU / 3.75 GB per authority", "a little above 100 AT/s");
    public static final PaperValue AT_SATURATION_4_VCPU = new PaperValue("Figs. 3-5", CENTRALISED, "AT throughput at saturation",
            "4 vCPU per authority", "about 240 AT/s");
    public static final PaperValue AT_SATURATION_8_VCPU = new PaperValue("Figs. 3-5", CENTRALISED, "AT throughput at saturation",
            "8 vCPU per authority", "over 300 AT/s");
    public static final PaperValue AT_LATENCY = new PaperValue("Figs. 3-5", CENTRALISED, "AT latency before saturation",
            "one machine per authority", "about 20 ms");
    public static final PaperValue EC_LATENCY = new PaperValue("Figs. 3-5", CENTRALISED, "EC latency before saturation",
            "one machine per authority", "about 10 ms");

    /** Every value, in the paper's order. */
    public static final List<PaperValue> ALL = List.of(AT_SATURATION_2_VCPU, AT_SATURATION_4_VCPU, AT_SATURATION_8_VCPU, AT_LATENCY,
            EC_LATENCY,
            new PaperValue("Figs. 6-7", DISTRIBUTED, "AT throughput", "10 to 50 groups of AA + EA + Operator + client (40-200 VMs)",
                    "from about 1,000 to about 5,000 AT/s, close to linear"),
            new PaperValue("Figs. 6-7", DISTRIBUTED, "EC throughput", "10 groups, ABCAST (total order)", "about 400 EC/s"),
            new PaperValue("Figs. 6-7", DISTRIBUTED, "EC throughput", "10 groups, FIFO", "about 500 EC/s"),
            new PaperValue("Figs. 6-7", DISTRIBUTED, "EC throughput", "20 groups, FIFO + asynchronous", "about 1,000 EC/s"),
            new PaperValue("Figs. 6-7", DISTRIBUTED, "EC throughput as replicas are added", "ABCAST", "falls: ABCAST does not scale"),
            new PaperValue("Figs. 8-11", GEOGRAPHIC, "EC and AT latency", "everything in Ireland", "10-20 ms"),
            new PaperValue("Figs. 8-11", GEOGRAPHIC, "EC and AT latency", "AAs and clients in US West, EAs in Europe", "about 300 ms"),
            new PaperValue("Figs. 8-11", GEOGRAPHIC, "AT latency", "groups replicated in both regions", "back to about 10 ms"),
            new PaperValue("Figs. 8-11", GEOGRAPHIC, "EC latency", "groups replicated in both regions",
                    "stays slow (cross-region replication)"));

    private PaperValues() {
    }

    /** The values of one experiment ({@link #CENTRALISED}, {@link #DISTRIBUTED}, {@link #GEOGRAPHIC}). */
    public static List<PaperValue> of(String experiment) {
        return ALL.stream().filter(v -> v.experiment().equals(experiment)).toList();
    }
}
