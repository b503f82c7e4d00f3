package eu.vpki.rca.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;

import java.time.Duration;
import java.util.List;

/**
 * The Root CA's configuration as the core sees it (the shell builds it from validated properties).
 *
 * @param name                        root certificate name (used at first start only)
 * @param curve                       root key curve (first start only)
 * @param rootValidityYears           root certificate validity (first start only)
 * @param ctlValidity                 CTL {@code nextUpdate} distance from its issuance
 * @param crlValidity                 CRL {@code nextUpdate} distance from its {@code thisUpdate}
 * @param renewalFraction             a list is re-issued once this fraction of its validity has elapsed (0 < f < 1)
 * @param distributionCentres         DC base URLs: listed in the CTL and published to
 * @param defaultAuthorityValidityDays validity of an EA/AA certificate when the request names none
 */
public record RcaSettings(String name, EtsiCurve curve, int rootValidityYears, Duration ctlValidity, Duration crlValidity,
                          double renewalFraction, List<String> distributionCentres, int defaultAuthorityValidityDays) {
    public RcaSettings {
        if (name == null || name.isBlank() || name.length() > 255) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "root name must be 1 to 255 characters");
        }
        if (rootValidityYears < 1 || rootValidityYears > 100) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "root validity must be 1 to 100 years");
        }
        if (ctlValidity.compareTo(Duration.ofMinutes(1)) < 0 || crlValidity.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "CTL and CRL validity must be at least a minute");
        }
        if (!(renewalFraction > 0 && renewalFraction < 1)) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "renewal fraction must be between 0 and 1");
        }
        distributionCentres = List.copyOf(distributionCentres);
        if (defaultAuthorityValidityDays < 1) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "default authority validity must be at least a day");
        }
    }
}
