package eu.vpki.station;

import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.validation.TrustStore;

import java.net.URI;
import java.util.List;

/**
 * What an OBU learns from the RCA certificate and the CTL: the EA to enrol with (its certificate and
 * {@code itsAccessPoint}), the AAs (certificate and {@code accessPoint}), and the trust store that
 * every returned certificate must validate against.
 */
public record PkiEndpoints(EtsiCertificate rca, TrustStore trust, Ea ea, List<Aa> aas) {
    public record Ea(EtsiCertificate certificate, URI enrolment) {
    }

    public record Aa(EtsiCertificate certificate, URI authorization) {
    }

    public PkiEndpoints {
        aas = List.copyOf(aas);
        if (aas.isEmpty()) {
            throw new PkiException(ErrorCode.NOT_TRUSTED, "the CTL lists no AA");
        }
    }

    /** {@link #discover(List, EtsiCertificate, java.time.Instant, javax.net.ssl.SSLContext)} with the JDK's public CAs for https DCs. */
    public static PkiEndpoints discover(List<URI> dcs, EtsiCertificate rca, java.time.Instant now) {
        return discover(dcs, rca, now, null);
    }

    /**
     * Finds the PKI from the DCs and the RCA certificate, as an OBU does: fetches and verifies the CTL
     * and CRL; {@code https} DCs verified with {@code tls} (e.g. a local cluster's TLS CA; null: the JDK's public CAs).
     */
    public static PkiEndpoints discover(List<URI> dcs, EtsiCertificate rca, java.time.Instant now, javax.net.ssl.SSLContext tls) {
        TrustListClient trustLists = new TrustListClient(dcs, rca, TrustListClient.Options.defaults(), tls);
        TrustListClient.Snapshot s = trustLists.refresh(now);
        return fromCtl(rca, s.ctl(), s.trustStore(), null);
    }

    /** Picks the EA (the first with an enrolment access point, or the one named) and every AA of the CTL. */
    public static PkiEndpoints fromCtl(EtsiCertificate rca, RcaCtl ctl, TrustStore trust, String eaName) {
        Ea ea = ctl.enrolmentAuthorities().stream()
                .filter(e -> trust.authority(e.certificate().hashedId8()).isPresent())
                .filter(e -> eaName == null || e.certificate().name().map(eaName::equals).orElse(false))
                .filter(e -> e.itsAccessPoint() != null)
                .findFirst()
                .map(e -> new Ea(e.certificate(), URI.create(e.itsAccessPoint())))
                .orElseThrow(() -> new PkiException(ErrorCode.NOT_TRUSTED, "the CTL lists no usable EA"
                        + (eaName == null ? "" : " named " + eaName)));
        List<Aa> aas = ctl.authorizationAuthorities().stream()
                .filter(a -> trust.authority(a.certificate().hashedId8()).isPresent())
                .map((CtlEntry.Aa a) -> new Aa(a.certificate(), URI.create(a.accessPoint())))
                .toList();
        return new PkiEndpoints(rca, trust, ea, aas);
    }
}
