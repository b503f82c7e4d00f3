package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

import java.time.Instant;
import java.util.List;

/**
 * The content of a Root CA certificate trust list (TS 102 941 ToBeSignedRcaCtl): a full list
 * (additions only) or a delta against the previous sequence number.
 */
public record RcaCtl(boolean full, int sequence, Instant nextUpdate, List<CtlEntry> additions, List<CtlDelete> deletions) {
    public RcaCtl {
        if (sequence < 0 || sequence > 255) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "ctlSequence is 0..255");
        }
        additions = List.copyOf(additions);
        deletions = List.copyOf(deletions);
        if (full && !deletions.isEmpty()) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "a full CTL carries no deletions");
        }
    }

    public List<CtlEntry.Ea> enrolmentAuthorities() {
        return additions.stream().filter(CtlEntry.Ea.class::isInstance).map(CtlEntry.Ea.class::cast).toList();
    }

    public List<CtlEntry.Aa> authorizationAuthorities() {
        return additions.stream().filter(CtlEntry.Aa.class::isInstance).map(CtlEntry.Aa.class::cast).toList();
    }

    public List<CtlEntry.Dc> distributionCentres() {
        return additions.stream().filter(CtlEntry.Dc.class::isInstance).map(CtlEntry.Dc.class::cast).toList();
    }
}
