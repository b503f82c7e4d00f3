package eu.vpki.rca.core;

import java.time.Instant;

/** The CRL as last issued. */
public record SignedCrl(Instant thisUpdate, Instant nextUpdate, byte[] encoded) {
    public SignedCrl {
        encoded = encoded.clone();
    }

    @Override
    public byte[] encoded() {
        return encoded.clone();
    }
}
