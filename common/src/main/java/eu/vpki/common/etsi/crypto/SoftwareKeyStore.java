package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.ECNamedCurveTable;
import org.bouncycastle.jce.interfaces.ECPrivateKey;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jce.spec.ECNamedCurveParameterSpec;
import org.bouncycastle.jce.spec.ECPrivateKeySpec;
import org.bouncycastle.jce.spec.ECPublicKeySpec;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.Optional;

/**
 * Authority keys in a password-protected PKCS#12 file. PKCS#12 stores a private key only with a
 * certificate chain, so each key is kept with a self-signed X.509 placeholder naming its alias and
 * curve (the ETSI certificates live elsewhere). Every change is written to a temporary file,
 * flushed to disk and moved into place atomically: a crash never leaves a half-written store.
 * An HSM would implement {@link EtsiSigner} instead and not use this class.
 */
public final class SoftwareKeyStore {
    private static final Provider BC = new BouncyCastleProvider();

    private final Path path;
    private final char[] password;
    private final KeyStore store;

    private SoftwareKeyStore(Path path, char[] password, KeyStore store) {
        this.path = path;
        this.password = password.clone();
        this.store = store;
    }

    /** Opens the store at {@code path}, or starts an empty one there (written on the first {@link #put}). */
    public static SoftwareKeyStore openOrCreate(Path path, char[] password) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12", BC);
            if (Files.exists(path)) {
                try (InputStream in = Files.newInputStream(path)) {
                    ks.load(in, password);
                }
            } else {
                ks.load(null, password);
            }
            return new SoftwareKeyStore(path, password, ks);
        } catch (IOException | GeneralSecurityException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "cannot open key store " + path + ": " + e.getMessage(), e);
        }
    }

    /**
     * The key-store password: the first line of {@code passwordFile} if given, else the environment
     * variable {@code envName}.
     */
    public static char[] password(Path passwordFile, Map<String, String> environment, String envName) {
        try {
            if (passwordFile != null) {
                String first = Files.readAllLines(passwordFile, StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
                if (first.isEmpty()) {
                    throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "password file " + passwordFile + " is empty");
                }
                return first.toCharArray();
            }
        } catch (IOException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "cannot read password file " + passwordFile + ": " + e.getMessage(), e);
        }
        String env = environment.get(envName);
        if (env == null || env.isEmpty()) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "no key-store password: give a password file or set " + envName);
        }
        return env.toCharArray();
    }

    public Optional<EtsiKeyPair> keyPair(String alias) {
        try {
            if (!store.isKeyEntry(alias)) {
                return Optional.empty();
            }
            ECPrivateKey key = (ECPrivateKey) store.getKey(alias, password);
            X509Certificate holder = (X509Certificate) store.getCertificate(alias);
            X500Name subject = X500Name.getInstance(holder.getSubjectX500Principal().getEncoded());
            EtsiCurve curve = EtsiCurve.parse(IETFUtils.valueToString(subject.getRDNs(BCStyle.OU)[0].getFirst().getValue()));
            return Optional.of(EtsiKeyPair.fromPrivateScalar(curve,
                    org.bouncycastle.util.BigIntegers.asUnsignedByteArray(curve.fieldBytes(), key.getD())));
        } catch (GeneralSecurityException | RuntimeException e) {
            if (e instanceof PkiException p) {
                throw p;
            }
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "cannot read key '" + alias + "' from " + path + ": " + e.getMessage(), e);
        }
    }

    /** The key under {@code alias}, generated and stored first if there is none. */
    public EtsiKeyPair keyPairOrGenerate(String alias, EtsiCurve curve, SecureRandom random) {
        return keyPair(alias).orElseGet(() -> {
            EtsiKeyPair kp = EtsiKeyPair.generate(curve, random);
            put(alias, kp, random);
            return kp;
        });
    }

    /** Stores (or replaces) a key and writes the store to disk atomically. */
    public synchronized void put(String alias, EtsiKeyPair keyPair, SecureRandom random) {
        try {
            EtsiCurve curve = keyPair.curve();
            ECNamedCurveParameterSpec spec = ECNamedCurveTable.getParameterSpec(curve.curveName());
            KeyFactory kf = KeyFactory.getInstance("EC", BC);
            PrivateKey priv = kf.generatePrivate(new ECPrivateKeySpec(new BigInteger(1, keyPair.privateScalar()), spec));
            PublicKey pub = kf.generatePublic(new ECPublicKeySpec(spec.getCurve().decodePoint(keyPair.publicKey().uncompressed()), spec));
            X500Name name = new X500Name(
                    "CN=" + alias.replaceAll("[,+=\"\\\\<>;]", "_") + ",OU=" + curve.curveName() + ",O=vpki key holder");
            Instant now = Instant.now();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(random.nextLong() & Long.MAX_VALUE),
                    Date.from(now), Date.from(now.plusSeconds(100L * 365 * 24 * 3600)), name, pub);
            String alg = curve.hash() == HashAlgorithm.SHA384 ? "SHA384withECDSA" : "SHA256withECDSA";
            X509Certificate holder = new JcaX509CertificateConverter().setProvider(BC)
                    .getCertificate(b.build(new JcaContentSignerBuilder(alg).setProvider(BC).build(priv)));
            store.setKeyEntry(alias, priv, password, new java.security.cert.Certificate[]{holder});
            write();
        } catch (GeneralSecurityException | org.bouncycastle.operator.OperatorCreationException | IOException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "cannot store key '" + alias + "' in " + path + ": " + e.getMessage(), e);
        }
    }

    private void write() throws IOException, GeneralSecurityException {
        Path dir = path.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, path.getFileName().toString(), ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                store.store(out, password);
            }
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
