package eu.vpki.common.distribution;

import java.time.Instant;

/**
 * Order of CTLs by {@code ctlSequence}, a UINT8 that wraps from 255 to 0 (TS 102 941 clause 6.3.2).
 * Sequence numbers compare as RFC 1982 serial numbers: {@code b} follows {@code a} when
 * {@code (b - a) mod 256} is 1..127. So a relying party must not miss more than 127 issuances, which
 * at the RCA's pace (one CTL per change and one per half validity) means months offline. A party
 * whose held CTL has passed its {@code nextUpdate} accepts any correctly signed CTL generated later,
 * whatever its sequence: that covers a longer absence and a Root CA whose counter was reset.
 */
public final class CtlSequence {
    private CtlSequence() {
    }

    /** The sequence number after {@code s}: {@code (s + 1) mod 256}. */
    public static int next(int s) {
        return (s + 1) & 0xFF;
    }

    /** Whether sequence {@code candidate} follows {@code held} in serial-number order. */
    public static boolean follows(int candidate, int held) {
        int d = (candidate - held) & 0xFF;
        return d >= 1 && d <= 127;
    }

    /**
     * Whether a verified CTL ({@code candidate*}) may replace the held one.
     *
     * @param now the caller's time, to tell whether the held CTL has expired
     */
    public static boolean supersedes(int candidateSequence, Instant candidateGenerated, int heldSequence, Instant heldGenerated,
                                     Instant heldNextUpdate, Instant now) {
        if (follows(candidateSequence, heldSequence)) {
            return true;
        }
        boolean heldExpired = !now.isBefore(heldNextUpdate);
        return heldExpired && candidateGenerated != null && heldGenerated != null && candidateGenerated.isAfter(heldGenerated);
    }
}
