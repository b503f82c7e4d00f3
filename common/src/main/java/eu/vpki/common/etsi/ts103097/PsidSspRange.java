package eu.vpki.common.etsi.ts103097;

import java.util.Arrays;
import java.util.List;

/**
 * A PSID with the range of SSPs an issuer may grant for it (IEEE 1609.2 PsidSspRange): any SSP
 * ({@link RangeKind#ALL} or absent), one of a list of opaque values, or a bitmap SSP range: each
 * bit set in {@code bitmask} must equal the same bit of {@code value} in a granted SSP, the other
 * bits may be granted either way (IEEE 1609.2 BitmapSspRange; the ETSI test-suite certificates
 * confirm it: e.g. CAM {@code 01fffc/ff0003} fixes the version byte 01 and the two reserved bits).
 */
public record PsidSspRange(long psid, RangeKind kind, List<byte[]> opaque, byte[] value, byte[] bitmask) {
    public enum RangeKind { ALL, OPAQUE, BITMAP }

    public PsidSspRange {
        opaque = opaque == null ? List.of() : opaque.stream().map(byte[]::clone).toList();
        value = value == null ? new byte[0] : value.clone();
        bitmask = bitmask == null ? new byte[0] : bitmask.clone();
        if (kind == RangeKind.BITMAP && value.length != bitmask.length) {
            throw new IllegalArgumentException("bitmap SSP range value and mask differ in length");
        }
    }

    public static PsidSspRange all(long psid) {
        return new PsidSspRange(psid, RangeKind.ALL, null, null, null);
    }

    public static PsidSspRange bitmap(long psid, byte[] value, byte[] bitmask) {
        return new PsidSspRange(psid, RangeKind.BITMAP, null, value, bitmask);
    }

    public static PsidSspRange opaque(long psid, List<byte[]> values) {
        return new PsidSspRange(psid, RangeKind.OPAQUE, values, null, null);
    }

    /** Whether granting {@code p} is within this range (same PSID, SSP allowed). */
    public boolean covers(PsidSsp p) {
        if (p.psid() != psid) {
            return false;
        }
        return switch (kind) {
            case ALL -> true;
            case OPAQUE -> p.kind() == PsidSsp.SspKind.NONE
                    || p.kind() == PsidSsp.SspKind.OPAQUE && opaque.stream().anyMatch(o -> Arrays.equals(o, p.ssp()));
            case BITMAP -> {
                if (p.kind() == PsidSsp.SspKind.NONE) {
                    yield true;
                }
                if (p.kind() != PsidSsp.SspKind.BITMAP || p.ssp().length != value.length) {
                    yield false;
                }
                byte[] s = p.ssp();
                // IEEE 1609.2 BitmapSspRange: a bit set in the mask means the SSP bit must equal the value bit
                for (int i = 0; i < s.length; i++) {
                    if (((s[i] ^ value[i]) & bitmask[i]) != 0) {
                        yield false;
                    }
                }
                yield true;
            }
        };
    }

    /** Whether every SSP this range allows is also allowed by {@code outer} (for CA-to-sub-CA checks). */
    public boolean within(PsidSspRange outer) {
        if (outer.psid != psid) {
            return false;
        }
        return switch (outer.kind) {
            case ALL -> true;
            case OPAQUE -> kind == RangeKind.OPAQUE
                    && opaque.stream().allMatch(v -> outer.opaque.stream().anyMatch(o -> Arrays.equals(o, v)));
            case BITMAP -> {
                if (kind != RangeKind.BITMAP || value.length != outer.value.length) {
                    yield false;
                }
                for (int i = 0; i < value.length; i++) {
                    // every bit the outer range fixes must be fixed here too, to the same value
                    if ((outer.bitmask[i] & ~bitmask[i]) != 0 || ((value[i] ^ outer.value[i]) & outer.bitmask[i]) != 0) {
                        yield false;
                    }
                }
                yield true;
            }
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PsidSspRange r && r.psid == psid && r.kind == kind && Arrays.equals(r.value, value)
                && Arrays.equals(r.bitmask, bitmask) && r.opaque.size() == opaque.size()
                && java.util.stream.IntStream.range(0, opaque.size()).allMatch(i -> Arrays.equals(r.opaque.get(i), opaque.get(i)));
    }

    @Override
    public int hashCode() {
        return Long.hashCode(psid) * 31 + kind.hashCode();
    }

    @Override
    public String toString() {
        var hex = java.util.HexFormat.of();
        return switch (kind) {
            case ALL -> "psid " + psid + " any ssp";
            case OPAQUE -> "psid " + psid + " opaque " + opaque.stream().map(hex::formatHex).toList();
            case BITMAP -> "psid " + psid + " bitmap " + hex.formatHex(value) + "/" + hex.formatHex(bitmask);
        };
    }
}
