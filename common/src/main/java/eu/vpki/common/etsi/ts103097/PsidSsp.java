package eu.vpki.common.etsi.ts103097;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * An application permission: a PSID with an optional service-specific permission (opaque bytes or
 * a bitmap SSP as TS 103 097 uses for CAM/DENM).
 */
public record PsidSsp(long psid, SspKind kind, byte[] ssp) {
    public enum SspKind { NONE, OPAQUE, BITMAP }

    public PsidSsp {
        if (psid < 0) {
            throw new IllegalArgumentException("PSID must not be negative");
        }
        ssp = kind == SspKind.NONE ? new byte[0] : ssp.clone();
        if (kind == SspKind.BITMAP && (ssp.length < 1 || ssp.length > 31)) {
            throw new IllegalArgumentException("a BitmapSsp is 1 to 31 bytes");
        }
    }

    public static PsidSsp of(long psid) {
        return new PsidSsp(psid, SspKind.NONE, new byte[0]);
    }

    public static PsidSsp bitmap(long psid, byte... ssp) {
        return new PsidSsp(psid, SspKind.BITMAP, ssp);
    }

    public static PsidSsp opaque(long psid, byte... ssp) {
        return new PsidSsp(psid, SspKind.OPAQUE, ssp);
    }

    @Override
    public byte[] ssp() {
        return ssp.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PsidSsp p && p.psid == psid && p.kind == kind && Arrays.equals(p.ssp, ssp);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(psid) * 31 + kind.hashCode() * 7 + Arrays.hashCode(ssp);
    }

    @Override
    public String toString() {
        return kind == SspKind.NONE
                ? "psid " + psid
                : "psid " + psid + " " + kind.name().toLowerCase() + " " + HexFormat.of().formatHex(ssp);
    }
}
