package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The deployment CAs a replica trusts on the replication channel (its trust store: one CA, two while
 * the CA is rotated), and what a replica certificate of theirs proves: the replica id (its subject's
 * CN) and the nistP256 key that signs that replica's commands (docs/design-replication-security.md).
 * Certificates that verified are remembered (a deployment has a handful), so a command costs one
 * signature verification, not a chain check. Thread-safe.
 */
public final class DeploymentTrust {
    /** Longest replica certificate accepted (ours are about 400 bytes). */
    public static final int MAX_CERTIFICATE_BYTES = 4096;
    /** Verified certificates remembered; more (a rotation storm, a misbehaving member) start the memory afresh. */
    private static final int REMEMBERED = 256;

    private final List<X509Certificate> authorities;
    private final Map<ByteBuffer, ReplicaCertificate> verified = new ConcurrentHashMap<>();

    private DeploymentTrust(List<X509Certificate> authorities) {
        if (authorities.isEmpty()) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "the trust store holds no deployment CA certificate");
        }
        this.authorities = List.copyOf(authorities);
    }

    /** The given CA certificates. */
    public static DeploymentTrust of(List<X509Certificate> authorities) {
        return new DeploymentTrust(authorities);
    }

    /** Every certificate entry of a PKCS#12 trust store (as {@link DeploymentCa#writeTrustStore} writes it). */
    public static DeploymentTrust read(Path trustStore, char[] password) {
        try (InputStream in = Files.newInputStream(trustStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            List<X509Certificate> authorities = new ArrayList<>();
            for (String alias : Collections.list(store.aliases())) {
                if (store.isCertificateEntry(alias) && store.getCertificate(alias) instanceof X509Certificate ca) {
                    authorities.add(ca);
                }
            }
            return new DeploymentTrust(authorities);
        } catch (IOException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "cannot read trust store " + trustStore + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "cannot read trust store " + trustStore + ": " + e.getMessage(), e);
        }
    }

    /** The trusted CA certificates. */
    public List<X509Certificate> authorities() {
        return authorities;
    }

    /**
     * What the DER certificate proves, if one of the trusted CAs issued it as a replica certificate
     * (not a CA, a nistP256 key, a subject CN that is a replica id).
     *
     * @throws PkiException {@link ErrorCode#MALFORMED_ENCODING} (not a certificate),
     *                      {@link ErrorCode#UNKNOWN_ISSUER} (no trusted CA signed it),
     *                      {@link ErrorCode#INVALID_PROFILE} (not a replica certificate)
     */
    public ReplicaCertificate identify(byte[] der) {
        ByteBuffer key = ByteBuffer.wrap(der);
        ReplicaCertificate known = verified.get(key);
        if (known != null) {
            return known;
        }
        if (der.length > MAX_CERTIFICATE_BYTES) {
            throw new PkiException(ErrorCode.OVERSIZE_INPUT, "replica certificate of " + der.length + " bytes");
        }
        X509Certificate certificate = parse(der);
        if (!issuedByTrusted(certificate)) {
            throw new PkiException(ErrorCode.UNKNOWN_ISSUER, "replica certificate " + certificate.getSubjectX500Principal()
                    + " not issued by a trusted deployment CA");
        }
        ReplicaCertificate identified = replicaCertificate(certificate, der);
        if (verified.size() >= REMEMBERED) {
            verified.clear();
        }
        verified.put(ByteBuffer.wrap(der.clone()), identified);
        return identified;
    }

    private boolean issuedByTrusted(X509Certificate certificate) {
        for (X509Certificate ca : authorities) {
            if (!ca.getSubjectX500Principal().equals(certificate.getIssuerX500Principal())) {
                continue;
            }
            try {
                certificate.verify(ca.getPublicKey());
                return true;
            } catch (GeneralSecurityException e) {
                // signed by another key of the same name: try the next CA
            }
        }
        return false;
    }

    /** The replica id, key and validity of a certificate whose issuer was checked (also for this replica's own). */
    static ReplicaCertificate replicaCertificate(X509Certificate certificate, byte[] der) {
        if (certificate.getBasicConstraints() >= 0) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, "a CA certificate is no replica certificate");
        }
        if (!(certificate.getPublicKey() instanceof ECPublicKey ec) || ec.getParams().getCurve().getField().getFieldSize() != 256
                || !ec.getParams().getOrder().equals(EtsiCurve.NIST_P256.domain().getN())) {
            throw new PkiException(ErrorCode.WRONG_CURVE, "replica certificates carry nistP256 keys");
        }
        byte[] point = new byte[65];
        point[0] = 4;
        copyFixed(ec.getW().getAffineX().toByteArray(), point, 1);
        copyFixed(ec.getW().getAffineY().toByteArray(), point, 33);
        EtsiPublicKey key = EtsiPublicKey.fromEncodedPoint(EtsiCurve.NIST_P256, point);
        return new ReplicaCertificate(commonName(certificate), key, certificate.getNotBefore().toInstant(),
                certificate.getNotAfter().toInstant(), der);
    }

    static X509Certificate parse(byte[] der) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
        } catch (CertificateException | RuntimeException e) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "not an X.509 certificate: " + e.getMessage(), e);
        }
    }

    private static String commonName(X509Certificate certificate) {
        RDN[] names = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded()).getRDNs(BCStyle.CN);
        if (names.length != 1) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, "a replica certificate names exactly one CN");
        }
        String id = IETFUtils.valueToString(names[0].getFirst().getValue());
        if (!id.matches(DeploymentCa.REPLICA_ID)) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, "CN " + id + " is not a replica id");
        }
        return id;
    }

    private static void copyFixed(byte[] unsigned, byte[] target, int offset) {
        int skip = unsigned.length > 32 ? unsigned.length - 32 : 0;
        int length = unsigned.length - skip;
        if (length > 32) {
            throw new PkiException(ErrorCode.INVALID_KEY, "a nistP256 coordinate longer than 32 bytes");
        }
        System.arraycopy(unsigned, skip, target, offset + 32 - length, length);
    }
}
