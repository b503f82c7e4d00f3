package eu.vpki.rca.core;

import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;

/** The root certificate and the signer of its key. */
public record RootCa(EtsiCertificate certificate, EtsiSigner signer) {
}
