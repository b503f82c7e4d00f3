package eu.vpki.common.etsi.crypto;

import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The TLS CA of one deployment's bearer-token APIs: an {@link X509Ca} (nistP256, ECDSA-SHA256) that issues
 * the server certificate of each RCA and Operator (server authentication only, subject alternative
 * names for every address or DNS name clients use), written as PEM files that Spring Boot's SSL
 * bundles read ({@code spring.ssl.bundle.pem.*}). Clients trust this CA only ({@link #clientContext}).
 *
 * <p>The local cluster generates one per run; a deployment generates one with {@code vpki-admin bootstrap
 * tls}, keeps its key offline and hands each host its certificate and key (on AWS from Secrets Manager).
 */
public final class ApiTlsCa {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern DNS_NAME = Pattern
            .compile("(\\*\\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*");

    private final X509Ca ca;

    private ApiTlsCa(X509Ca ca) {
        this.ca = ca;
    }

    /** A server's certificate chain (its own, then the CA's) and its private key, as PEM files. */
    public record Issued(Path certificateChain, Path privateKey, X509Certificate certificate) {
    }

    /** A new CA named {@code CN=<name>}, valid from {@code now} for {@code validity}. */
    public static ApiTlsCa generate(String name, Instant now, Duration validity, SecureRandom random) {
        return new ApiTlsCa(X509Ca.generate(name, now, validity, random));
    }

    /** Reads a CA written by {@link #write}. */
    public static ApiTlsCa read(Path certificatePem, Path privateKeyPem) {
        List<X509Certificate> certificates = certificates(certificatePem);
        try {
            byte[] der = pemBody(Files.readString(privateKeyPem), "PRIVATE KEY");
            PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));
            return new ApiTlsCa(new X509Ca(key, certificates.get(0)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + privateKeyPem, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("not an EC private key (PKCS#8 PEM): " + privateKeyPem, e);
        }
    }

    public X509Certificate certificate() {
        return ca.certificate();
    }

    /** Writes the CA certificate (what clients trust) and, readable by this user only, its private key. */
    public void write(Path certificatePem, Path privateKeyPem) {
        writeFile(certificatePem, pem("CERTIFICATE", encoded(ca.certificate())), false);
        writeFile(privateKeyPem, pem("PRIVATE KEY", ca.key().getEncoded()), true);
    }

    /**
     * Issues a server a new key and certificate: {@code CN=<name>}, subject alternative names
     * {@code names} (IPv4 addresses as IP addresses, the others as DNS names), server authentication
     * only, valid from {@code now} for {@code validity}; writes {@code <dir>/<name>.crt} (its
     * certificate, then the CA's) and {@code <dir>/<name>.key} (PKCS#8, mode 0600).
     */
    public Issued issueServer(String name, Collection<String> names, Instant now, Duration validity, SecureRandom random, Path dir) {
        if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("not a server name: " + name);
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException("a server certificate needs at least one address or DNS name");
        }
        GeneralName[] alternatives = names.stream().map(ApiTlsCa::generalName).toArray(GeneralName[]::new);
        X509Ca.Issued issued = ca.issue(name, List.of(
                X509Ca.extension(Extension.extendedKeyUsage, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth)),
                X509Ca.extension(Extension.subjectAlternativeName, new GeneralNames(alternatives))), now, validity, random);
        Path chain = dir.resolve(name + ".crt");
        Path privateKey = dir.resolve(name + ".key");
        writeFile(chain, pem("CERTIFICATE", encoded(issued.certificate())) + pem("CERTIFICATE", encoded(ca.certificate())), false);
        writeFile(privateKey, pem("PRIVATE KEY", issued.keyPair().getPrivate().getEncoded()), true);
        return new Issued(chain, privateKey, issued.certificate());
    }

    /**
     * A client context that trusts the certificates of {@code caPem} and nothing else (not the JDK's
     * public CAs): a server is accepted only with a certificate of this deployment's CA for the name
     * or address the client connects to.
     */
    public static SSLContext clientContext(Path caPem) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            int i = 0;
            for (X509Certificate c : certificates(caPem)) {
                trust.setCertificateEntry("ca-" + i++, c);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a TLS client context trusting " + caPem, e);
        }
    }

    /** The X.509 certificates of a PEM file, in order; fails if it has none. */
    public static List<X509Certificate> certificates(Path pem) {
        try (InputStream in = new ByteArrayInputStream(Files.readAllBytes(pem))) {
            List<X509Certificate> list = CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
                    .map(X509Certificate.class::cast).toList();
            if (list.isEmpty()) {
                throw new IllegalArgumentException("no certificate in " + pem);
            }
            return list;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + pem, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not a PEM file of X.509 certificates: " + pem, e);
        }
    }

    private static GeneralName generalName(String name) {
        if (IPV4.matcher(name).matches()) {
            return new GeneralName(GeneralName.iPAddress, name);
        }
        if (!DNS_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("not an IPv4 address or DNS name: " + name);
        }
        return new GeneralName(GeneralName.dNSName, name);
    }

    private static byte[] encoded(X509Certificate c) {
        try {
            return c.getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static byte[] pemBody(String text, String type) {
        int begin = text.indexOf("-----BEGIN " + type + "-----");
        int end = text.indexOf("-----END " + type + "-----");
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("no " + type + " PEM block");
        }
        return Base64.getMimeDecoder().decode(text.substring(begin + type.length() + 16, end));
    }

    private static void writeFile(Path file, String content, boolean secret) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Files.deleteIfExists(file);
            if (secret) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(file, content, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
