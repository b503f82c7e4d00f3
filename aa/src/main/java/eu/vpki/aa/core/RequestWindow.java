package eu.vpki.aa.core;

import java.time.Duration;

/**
 * How fresh a request must be. A request with proof of possession carries the station's
 * generationTime: it must lie in {@code [now - window, now + futureTolerance]}. Every request's
 * fingerprint is remembered for {@code window + futureTolerance} (the replay window), so a replay
 * of a signed request is refused for as long as its generation time is acceptable. A request
 * without proof of possession carries no time the AA can read (the EC signature's is encrypted for
 * the EA): it is refused as a replay within the replay window only; {@code requireProofOfPossession}
 * refuses such requests outright.
 * <p>
 * {@code requireEncryptedEcSignature} refuses a request whose EC signature is not encrypted for the
 * EA ({@code ecSignature} rather than {@code encryptedEcSignature}): such a signature names the EC
 * (signer digest), so the AA would hold the link between a station's EC and its pseudonym that the
 * privacy split keeps from it (docs/aa.md, "Privacy"). On by default.
 */
public record RequestWindow(Duration window, Duration futureTolerance, boolean requireProofOfPossession,
                            boolean requireEncryptedEcSignature) {
    public static final RequestWindow DEFAULT = new RequestWindow(Duration.ofMinutes(5), Duration.ofSeconds(30), false, true);

    public RequestWindow {
        if (window.isNegative() || window.isZero() || futureTolerance.isNegative()) {
            throw new IllegalArgumentException("request window must be positive and future tolerance not negative");
        }
    }

    /** How long a request's fingerprint is kept. */
    public Duration replayRetention() {
        return window.plus(futureTolerance);
    }
}
