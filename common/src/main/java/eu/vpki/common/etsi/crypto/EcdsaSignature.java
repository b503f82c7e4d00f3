package eu.vpki.common.etsi.crypto;

import java.util.Arrays;

/**
 * An ECDSA signature as IEEE 1609.2 carries it: r as an x-only value and s, each
 * {@link EtsiCurve#fieldBytes()} long.
 */
public record EcdsaSignature(EtsiCurve curve, byte[] r, byte[] s) {
    public EcdsaSignature {
        if (r.length != curve.fieldBytes() || s.length != curve.fieldBytes()) {
            throw new IllegalArgumentException("r and s must be " + curve.fieldBytes() + " bytes on " + curve);
        }
        r = r.clone();
        s = s.clone();
    }

    @Override
    public byte[] r() {
        return r.clone();
    }

    @Override
    public byte[] s() {
        return s.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EcdsaSignature e && e.curve == curve && Arrays.equals(e.r, r) && Arrays.equals(e.s, s);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(r) * 31 + Arrays.hashCode(s);
    }
}
