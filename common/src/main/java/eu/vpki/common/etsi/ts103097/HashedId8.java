package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.HashAlgorithm;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * IEEE 1609.2 HashedId8: the last 8 bytes of a hash (SHA-256, or SHA-384 for brainpoolP384r1
 * issuers) over the COER encoding of a whole structure, typically a certificate.
 */
public final class HashedId8 {
    private final byte[] value;

    private HashedId8(byte[] value) {
        this.value = value;
    }

    public static HashedId8 of(byte[] eightBytes) {
        if (eightBytes == null || eightBytes.length != 8) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "HashedId8 must be 8 bytes");
        }
        return new HashedId8(eightBytes.clone());
    }

    /** HashedId8 of a COER encoding with the given hash. */
    public static HashedId8 hashOf(byte[] coer, HashAlgorithm hash) {
        byte[] h = hash.digest(coer);
        return new HashedId8(Arrays.copyOfRange(h, h.length - 8, h.length));
    }

    /** Parses 16 hex digits, either case. */
    public static HashedId8 fromHex(String hex) {
        try {
            return of(HexFormat.of().parseHex(hex));
        } catch (IllegalArgumentException e) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "not a HashedId8: '" + hex + "'", e);
        }
    }

    public byte[] bytes() {
        return value.clone();
    }

    /** The last 3 bytes: the HashedId3 of the same structure. */
    public byte[] hashedId3() {
        return Arrays.copyOfRange(value, 5, 8);
    }

    /** Upper-case hex, as the DC's URLs use it. */
    public String toHex() {
        return HexFormat.of().withUpperCase().formatHex(value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HashedId8 h && Arrays.equals(h.value, value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return toHex();
    }
}
