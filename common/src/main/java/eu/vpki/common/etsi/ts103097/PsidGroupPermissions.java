package eu.vpki.common.etsi.ts103097;

import java.util.List;

/**
 * One entry of certIssuePermissions (IEEE 1609.2 PsidGroupPermissions): which permissions a CA may
 * grant ({@code ranges}, or every PSID when {@code all}), at which chain depth, to which end-entity
 * types. Defaults per the ASN.1: minChainLength 1, chainLengthRange 0, eeType {app}.
 */
public record PsidGroupPermissions(boolean all, List<PsidSspRange> ranges, int minChainLength, int chainLengthRange,
                                   boolean eeApp, boolean eeEnrol) {
    public PsidGroupPermissions {
        ranges = all ? List.of() : List.copyOf(ranges);
    }

    /** Permissions to grant the given ranges to end entities of type app, directly (chain length 1). */
    public static PsidGroupPermissions forApp(List<PsidSspRange> ranges) {
        return new PsidGroupPermissions(false, ranges, 1, 0, true, false);
    }

    /** Whether a certificate issued under these permissions may carry {@code p} (PSID and SSP). */
    public boolean covers(PsidSsp p) {
        return all || ranges.stream().anyMatch(r -> r.covers(p));
    }
}
