package eu.vpki.experiments;

import java.time.Duration;
import java.util.Locale;

/**
 * The regions of the geographic experiment and the one-way delay between them that the emulation
 * adds (the delaying proxy between vehicles, AAs and EAs; the replication traffic's delay). The
 * values are half of commonly published round-trip times between these AWS regions, rounded, not
 * measured here (docs/deployment.md, "What latency to expect between regions"; docs/experiments.md
 * has the table). Inside a region nothing is added: the local links of this machine stand in for
 * a data centre's.
 */
public enum Region {
    IRELAND("eu-west-1", "Ireland"), FRANKFURT("eu-central-1", "Frankfurt"), US_EAST("us-east-1", "N. Virginia"), US_WEST("us-west-2",
            "Oregon");

    /** One-way delays in milliseconds, in the order of the constants; symmetric. */
    private static final int[][] ONE_WAY_MS = {
            /*              IE  FRA  USE  USW */
            /* IRELAND */ {0, 12, 38, 70},
            /* FRANKFURT */ {12, 0, 45, 75},
            /* US_EAST */ {38, 45, 0, 32},
            /* US_WEST */ {70, 75, 32, 0}};

    private final String awsName;
    private final String place;

    Region(String awsName, String place) {
        this.awsName = awsName;
        this.place = place;
    }

    public String awsName() {
        return awsName;
    }

    public String place() {
        return place;
    }

    /** What the emulation adds to every message from this region to {@code other} (zero inside a region). */
    public Duration oneWayTo(Region other) {
        return Duration.ofMillis(ONE_WAY_MS[ordinal()][other.ordinal()]);
    }

    /** By AWS name ({@code eu-west-1}), constant name or place, ignoring case. */
    public static Region parse(String text) {
        for (Region r : values()) {
            if (r.awsName.equalsIgnoreCase(text) || r.name().equalsIgnoreCase(text.replace('-', '_')) || r.place.equalsIgnoreCase(text)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown region " + text + "; known: " + java.util.Arrays.stream(values())
                .map(r -> r.awsName + " (" + r.place + ")").toList());
    }

    @Override
    public String toString() {
        return place + " (" + awsName.toLowerCase(Locale.ROOT) + ")";
    }
}
