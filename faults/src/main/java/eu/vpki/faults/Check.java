package eu.vpki.faults;

/** The checks run on a history after healing and a quiet period (docs/reliability.md explains each). */
public enum Check {
    LOST_WRITES("acknowledged writes lost", "an acknowledged registration, change, revocation or EC missing, or overwritten by an older value, on a replica"),
    DIVERGENCE("divergence", "replicas whose replicated keyspace differs (digest), and how many keys differ"),
    READ_YOUR_WRITES("read-your-writes violations", "a read presenting a write's token answered with older state"),
    STALE_VALIDATIONS("stale validations", "an AT issued (or an EC) for a station after its revocation was acknowledged"),
    MINORITY_WRITES("minority writes", "writes acknowledged by a replica that was on the minority side of a partition at the time"),
    SEQUENCE("sequence gaps and reuse", "a token (seq@origin) used for two writes, a command skipped by a replica that applied later ones, an origin not applied up to its last acknowledged command"),
    AVAILABILITY("availability", "share of operations acknowledged among those that got an answer or should have (refusals that are decisions excluded)");

    private final String title;
    private final String description;

    Check(String title, String description) {
        this.title = title;
        this.description = description;
    }

    public String title() {
        return title;
    }

    public String description() {
        return description;
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
