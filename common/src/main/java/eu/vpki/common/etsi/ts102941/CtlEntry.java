package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;

import java.util.List;

/** An entry a Root CA's CTL adds (TS 102 941 CtlEntry, the choices an RCA CTL may carry). */
public sealed interface CtlEntry {
    /** An EA: its certificate, enrolment URL ({@code itsAccessPoint}, may be null) and validation URL for AAs. */
    record Ea(EtsiCertificate certificate, String itsAccessPoint, String aaAccessPoint) implements CtlEntry {
        public Ea {
            Urls.require(aaAccessPoint, "aaAccessPoint");
            if (itsAccessPoint != null) {
                Urls.require(itsAccessPoint, "itsAccessPoint");
            }
        }
    }

    /** An AA: its certificate and the URL where stations send authorization requests. */
    record Aa(EtsiCertificate certificate, String accessPoint) implements CtlEntry {
        public Aa {
            Urls.require(accessPoint, "accessPoint");
        }
    }

    /** A Distribution Centre: its URL and the RCA certificates whose lists it serves. */
    record Dc(String url, List<HashedId8> certificates) implements CtlEntry {
        public Dc {
            Urls.require(url, "url");
            certificates = List.copyOf(certificates);
        }
    }
}
