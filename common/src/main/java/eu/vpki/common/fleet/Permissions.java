package eu.vpki.common.fleet;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * What an operator may permit a station, and whether a request stays within it.
 *
 * <ul>
 *   <li>Registrable: the AT PSIDs of {@link Psids#AUTHORIZATION_TICKET_PSIDS} with an SSP inside the AT
 *       ranges the PKI's AAs grant ({@link CertificateProfiles#defaultAuthorizationTicketRanges()}), and
 *       623 (secured certificate request) without SSP or with the EC SSP {@code 01C0}. Each PSID once.</li>
 *   <li>Allowed: a requested permission is allowed when a permitted one has the same PSID and the requested
 *       SSP grants no more: identical opaque SSPs; for bitmap SSPs of equal length the same first
 *       (version) byte and no bit set that the permitted SSP does not set; no SSP only when the permitted
 *       one has none.</li>
 * </ul>
 */
public final class Permissions {
    private static final HexFormat HEX = HexFormat.of();

    private Permissions() {
    }

    /**
     * Checks a permission list an operator registers.
     *
     * @throws PkiException UNKNOWN_PSID, PERMISSIONS_EXCEED_ISSUER or DUPLICATE_ID naming the offending entry
     */
    public static void requireRegistrable(List<PsidSsp> permissions) {
        List<Long> seen = new ArrayList<>();
        for (PsidSsp p : permissions) {
            if (seen.contains(p.psid())) {
                throw new PkiException(ErrorCode.DUPLICATE_ID, "PSID " + p.psid() + " listed twice");
            }
            seen.add(p.psid());
            if (p.psid() == Psids.SECURED_CERTIFICATE_REQUEST) {
                if (p.kind() != PsidSsp.SspKind.NONE && !(p.kind() == PsidSsp.SspKind.BITMAP
                        && Arrays.equals(p.ssp(), CertificateProfiles.EC_SSP))) {
                    throw new PkiException(ErrorCode.PERMISSIONS_EXCEED_ISSUER, "PSID 623 takes no SSP or bitmap 01C0, got " + p);
                }
                continue;
            }
            if (!Psids.knownForAuthorizationTickets(p.psid())) {
                throw new PkiException(ErrorCode.UNKNOWN_PSID, "PSID " + p.psid() + " is not one this PKI issues");
            }
            boolean covered = CertificateProfiles.defaultAuthorizationTicketRanges().stream()
                    .filter(r -> r.psid() == p.psid()).anyMatch(r -> r.covers(p));
            if (!covered) {
                throw new PkiException(ErrorCode.PERMISSIONS_EXCEED_ISSUER, p + " is outside what the AAs may grant");
            }
        }
    }

    /** Whether {@code requested} grants no more than one of {@code permitted}. */
    public static boolean allows(List<PsidSsp> permitted, PsidSsp requested) {
        return permitted.stream().anyMatch(p -> p.psid() == requested.psid() && sspWithin(requested, p));
    }

    private static boolean sspWithin(PsidSsp requested, PsidSsp permitted) {
        return switch (requested.kind()) {
            case NONE -> permitted.kind() == PsidSsp.SspKind.NONE;
            case OPAQUE -> permitted.kind() == PsidSsp.SspKind.OPAQUE && Arrays.equals(requested.ssp(), permitted.ssp());
            case BITMAP -> {
                if (permitted.kind() != PsidSsp.SspKind.BITMAP || permitted.ssp().length != requested.ssp().length) {
                    yield false;
                }
                byte[] r = requested.ssp();
                byte[] q = permitted.ssp();
                if (r[0] != q[0]) {
                    yield false;
                }
                for (int i = 1; i < r.length; i++) {
                    if ((r[i] & ~q[i]) != 0) {
                        yield false;
                    }
                }
                yield true;
            }
        };
    }

    /** Text form {@code psid[/o|/b:hex]} joined by {@code ,}: e.g. {@code 36/b:01fffc,623}. */
    public static String encode(List<PsidSsp> permissions) {
        StringBuilder out = new StringBuilder();
        for (PsidSsp p : permissions) {
            if (!out.isEmpty()) {
                out.append(',');
            }
            out.append(p.psid());
            switch (p.kind()) {
                case NONE -> {
                }
                case OPAQUE -> out.append("/o:").append(HEX.formatHex(p.ssp()));
                case BITMAP -> out.append("/b:").append(HEX.formatHex(p.ssp()));
            }
        }
        return out.toString();
    }

    /** Parses {@link #encode}'s form. */
    public static List<PsidSsp> decode(String text) {
        if (text == null || text.isEmpty()) {
            return List.of();
        }
        List<PsidSsp> out = new ArrayList<>();
        for (String item : text.split(",")) {
            int slash = item.indexOf('/');
            if (slash < 0) {
                out.add(PsidSsp.of(Long.parseLong(item)));
                continue;
            }
            long psid = Long.parseLong(item.substring(0, slash));
            byte[] ssp = HEX.parseHex(item.substring(slash + 3));
            out.add(item.charAt(slash + 1) == 'o' ? PsidSsp.opaque(psid, ssp) : PsidSsp.bitmap(psid, ssp));
        }
        return List.copyOf(out);
    }
}
