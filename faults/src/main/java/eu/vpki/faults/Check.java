package eu.vpki.faults;

/** The checks run on a history after healing and a quiet period (docs/reliability.md explains each). */
public enum Check {
    LOST_WRITES("acknowledged writes lost",
            "an acknowledged registration (and its key), status or permission change (each register apart), revocation or EC missing, or overwritten by an older value, on a replica; a torn batch; an unreadable replica"), DIVERGENCE(
                    "divergence",
                    "replicas whose replicated keyspace differs (digest), and how many keys differ; an unreadable replica, fewer than two read"), READ_YOUR_WRITES(
                            "read-your-writes violations",
                            "a read presenting a write's token answered with older state"), STALE_VALIDATIONS("stale validations",
                                    "an AT or EC issued for a station and answered after its revocation was acknowledged (a violation beyond what the mode allows: the lease, 5 s)"), MINORITY_WRITES(
                                            "minority writes",
                                            "writes acknowledged by a replica that was on the minority side of a partition at the time"), ONE_ACTIVE_EC(
                                                    "one ACTIVE EC per station",
                                                    "a station holding two or more ACTIVE ECs, or none, or a latest-EC pointer that does not name its ACTIVE EC, on a replica"), SEQUENCE(
                                                            "sequence gaps and reuse",
                                                            "a token (seq@origin) used for two writes, a command skipped by a replica that applied later ones, an origin not applied up to its last acknowledged command"), LIVENESS(
                                                                    "liveness after the faults",
                                                                    "a replica not serving within the bound after the last heal, or leaving service again before its state was read"), RESOURCES(
                                                                            "resources",
                                                                            "a replica's heap at or above 95 % of its maximum, or a command log left untrimmed after the quiet period; peaks of heap, Redis memory and command log"), AVAILABILITY(
                                                                                    "availability",
                                                                                    "share of operations acknowledged among those that got an answer or should have (refusals that are decisions excluded)");

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
