package eu.vpki.aa.core;

import eu.vpki.common.etsi.ts103097.EncryptionRecipient;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;

import java.net.URI;
import java.util.List;

/**
 * An EA as the AA reaches it: its certificate (trusted, from the current CTL) and the URLs of its
 * authorization-validation endpoint, the CTL's {@code aaAccessPoint} first, then further replicas
 * of the same EA when configured. The AA tries them in turn when one fails.
 */
public record EaEndpoint(EtsiCertificate certificate, EncryptionRecipient recipient, List<URI> accessPoints) {
    public EaEndpoint {
        accessPoints = List.copyOf(accessPoints);
        if (accessPoints.isEmpty()) {
            throw new IllegalArgumentException("an EA endpoint needs at least one access point");
        }
    }

    public static EaEndpoint of(EtsiCertificate certificate, List<URI> accessPoints) {
        return new EaEndpoint(certificate, certificate.asEncryptionRecipient(), accessPoints);
    }
}
