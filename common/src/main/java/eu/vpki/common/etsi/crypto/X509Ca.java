package eu.vpki.common.etsi.crypto;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;

/**
 * An X.509 CA of our own TLS (not ETSI): a nistP256 key and its self-signed certificate, issuing
 * end-entity certificates (ECDSA-SHA256, a new nistP256 key each, {@code CN=<name>}, not a CA, digital
 * signature) with the extensions the caller's profile adds. The one implementation behind the
 * replication channel's {@link DeploymentCa} and the HTTPS APIs' {@link ApiTlsCa} (package-private: BouncyCastle
 * types stay inside this package).
 */
final class X509Ca {
    private final PrivateKey key;
    private final X509Certificate certificate;

    X509Ca(PrivateKey key, X509Certificate certificate) {
        this.key = key;
        this.certificate = certificate;
    }

    /** An issued certificate and the key pair it certifies. */
    record Issued(KeyPair keyPair, X509Certificate certificate) {
    }

    /** A new CA named {@code CN=<name>} (may sign end entities only), valid from {@code now} for {@code validity}. */
    static X509Ca generate(String name, Instant now, Duration validity, SecureRandom random) {
        try {
            KeyPair pair = newKeyPair(random);
            X500Name subject = new X500Name("CN=" + name);
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(subject, serial(random), Date.from(now),
                    Date.from(now.plus(validity)), subject, pair.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            return new X509Ca(pair.getPrivate(), sign(builder, pair.getPrivate()));
        } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
            throw new IllegalStateException("cannot generate the CA " + name, e);
        }
    }

    PrivateKey key() {
        return key;
    }

    X509Certificate certificate() {
        return certificate;
    }

    /**
     * A new key pair and its certificate {@code CN=<name>}, valid from {@code now} for {@code validity},
     * with {@code extensions} (e.g. extended key usage, subject alternative names) besides basic
     * constraints (not a CA) and key usage (digital signature).
     */
    Issued issue(String name, List<Extension> extensions, Instant now, Duration validity, SecureRandom random) {
        try {
            KeyPair pair = newKeyPair(random);
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(certificate, serial(random), Date.from(now),
                    Date.from(now.plus(validity)), new X500Name("CN=" + name), pair.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            for (Extension e : extensions) {
                builder.addExtension(e);
            }
            return new Issued(pair, sign(builder, key));
        } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
            throw new IllegalStateException("cannot issue the certificate of " + name, e);
        }
    }

    /** A non-critical extension of {@code value}'s encoding. */
    static Extension extension(org.bouncycastle.asn1.ASN1ObjectIdentifier oid, org.bouncycastle.asn1.ASN1Encodable value) {
        try {
            return new Extension(oid, false, value.toASN1Primitive().getEncoded());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static KeyPair newKeyPair(SecureRandom random) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), random);
        return generator.generateKeyPair();
    }

    private static BigInteger serial(SecureRandom random) {
        return new BigInteger(127, random).add(BigInteger.ONE);
    }

    private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
    }
}
