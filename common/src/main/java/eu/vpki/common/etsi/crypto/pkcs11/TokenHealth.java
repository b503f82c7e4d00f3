package eu.vpki.common.etsi.crypto.pkcs11;

import java.time.Instant;

/**
 * Whether a token can be used for the authority's keys: UP, or DOWN with the reason and since when.
 * A service maps DOWN to its health endpoint's DOWN so that it is taken out of rotation.
 */
public record TokenHealth(boolean up, String detail, Instant since) {
    static TokenHealth up(Instant now) {
        return new TokenHealth(true, "keys usable", now);
    }

    static TokenHealth down(String reason, Instant now) {
        return new TokenHealth(false, reason, now);
    }
}
