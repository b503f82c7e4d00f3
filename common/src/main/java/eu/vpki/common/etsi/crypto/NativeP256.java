package eu.vpki.common.etsi.crypto;

import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.BigIntegers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import javax.crypto.KeyAgreement;

/**
 * nistP256 ECDSA and ECDH in AWS-LC (assembly, constant time), reached through the Amazon
 * Corretto Crypto Provider (ACCP), whose Maven jar ships the native library for linux-x86_64.
 * On this project's machines an ECDSA verification with a key seen once costs about 80 µs here
 * against 250-300 µs in BouncyCastle, an ECDH about 65 µs against 270-300 µs, a signature about
 * 22 µs against 75 µs (docs/benchmarks.md). BouncyCastle runs everything nistP256 when this class
 * is off; AWS-LC has no brainpool curves ({@link MontgomeryBrainpool} runs those).
 *
 * <p><b>Key generation</b> (station and AT keys, and the ephemeral key of every ECIES encryption)
 * runs here too, with the private scalar drawn from the caller's {@link SecureRandom}
 * ({@link EtsiCurve#randomScalar}), so that the caller's randomness still decides every key:
 * AWS-LC computes d&middot;G in constant time when it imports d, and {@link #keyPair} reads that
 * public key back. ACCP has no public API for it (its {@code KeyPairGenerator} ignores the caller's
 * randomness and draws from AWS-LC's DRBG, and a private key's encoding leaves the public key out),
 * so {@link Accp#publicKeyDerivation} reaches ACCP's own accessor by reflection. That is a
 * dependency on ACCP's internals: it is looked up once, checked by the start-up self-test against
 * BouncyCastle's d&middot;G, and where either fails, BouncyCastle generates the keys (its comb) and
 * the log says why; ECDSA and ECDH stay here (docs/encryption.md, "How steps 1 and 2 are computed").
 *
 * <p>It is on when ACCP's native library loads and the start-up self-test passes (a signature
 * made here verifies in BouncyCastle and the other way round, and both sides agree on an ECDH
 * value), unless the system property {@code vpki.crypto.native} or the environment variable
 * {@code VPKI_CRYPTO_NATIVE} says {@code off}. The provider is used directly, never installed
 * in the JCA list, so no other code changes provider by accident.
 *
 * <p>Signatures made here take their nonce from AWS-LC's own DRBG, not from the
 * {@link SecureRandom} a {@link SoftwareSigner} was given: ECDSA signatures are randomised either
 * way and no replicated value depends on one (replicas store the signed certificate's bytes).
 */
final class NativeP256 {
    private static final Logger log = LoggerFactory.getLogger(NativeP256.class);
    /** System property (or {@code VPKI_CRYPTO_NATIVE} in the environment): {@code auto} (default) or {@code off}. */
    static final String SWITCH = "vpki.crypto.native";

    private static final Backend BACKEND = Backend.load(System.getProperty(SWITCH, System.getenv("VPKI_CRYPTO_NATIVE")));

    private NativeP256() {
    }

    /** Whether nistP256 operations run natively in this JVM. */
    static boolean enabled() {
        return BACKEND.available;
    }

    /** Whether {@code curve}'s operations run natively in this JVM. */
    static boolean handles(EtsiCurve curve) {
        return curve == EtsiCurve.NIST_P256 && BACKEND.available;
    }

    /** One line for start-up logs and reports: which backend runs which curve. */
    static String description() {
        return BACKEND.description;
    }

    /** A JCA public key of ACCP for a nistP256 point (affine, on the curve: BouncyCastle checked it). */
    static PublicKey publicKey(ECPoint normalized) {
        return BACKEND.publicKey(normalized);
    }

    /** A JCA private key of ACCP for a nistP256 scalar. */
    static PrivateKey privateKey(BigInteger d) {
        return BACKEND.privateKey(d);
    }

    /** Whether nistP256 key generation (d&middot;G) runs natively in this JVM: {@link #keyPair} may be called. */
    static boolean generatesKeys(EtsiCurve curve) {
        return curve == EtsiCurve.NIST_P256 && BACKEND.publicKeyDerivation != null;
    }

    /**
     * The nistP256 key pair of a private scalar (32 bytes, big-endian, in [1, n - 1]): d imported
     * into AWS-LC, d&middot;G as AWS-LC computed it on import; both kept with the key pair, so an ECDH
     * or a signature with it imports nothing again. Only where {@link #generatesKeys} says so.
     */
    static EtsiKeyPair keyPair(byte[] d) {
        PrivateKey privateKey = BACKEND.privateKey(new BigInteger(1, d));
        ECPublicKey publicKey = BACKEND.publicKeyOf(privateKey);
        int n = EtsiCurve.NIST_P256.fieldBytes();
        java.security.spec.ECPoint w = publicKey.getW();
        EtsiPublicKey etsi = new EtsiPublicKey(EtsiCurve.NIST_P256, BigIntegers.asUnsignedByteArray(n, w.getAffineX()),
                BigIntegers.asUnsignedByteArray(n, w.getAffineY()), publicKey);
        return new EtsiKeyPair(etsi, d, privateKey);
    }

    /** ECDSA over a 32-byte digest (no further hashing); r and s 32 bytes each. */
    static byte[][] sign(PrivateKey key, byte[] digest) {
        return BACKEND.sign(key, digest);
    }

    /** ECDSA verification over a 32-byte digest; false for any malformed or out-of-range value. */
    static boolean verify(PublicKey key, byte[] digest, byte[] r, byte[] s) {
        return BACKEND.verify(key, digest, r, s);
    }

    /** The x coordinate of ours·theirs (ECSVDP-DH), 32 bytes. */
    static byte[] agree(PrivateKey ours, PublicKey theirs) throws GeneralSecurityException {
        return BACKEND.agree(ours, theirs);
    }

    /** DER {@code SEQUENCE { INTEGER r, INTEGER s }} from unsigned big-endian r and s, as the JCA signs and verifies. */
    static byte[] encodeDer(byte[] r, byte[] s) {
        byte[] ri = derInteger(r);
        byte[] si = derInteger(s);
        int body = ri.length + si.length;
        if (body > 127) {
            throw new IllegalArgumentException("r and s too long for a nistP256 signature");
        }
        byte[] out = new byte[2 + body];
        out[0] = 0x30;
        out[1] = (byte) body;
        System.arraycopy(ri, 0, out, 2, ri.length);
        System.arraycopy(si, 0, out, 2 + ri.length, si.length);
        return out;
    }

    private static byte[] derInteger(byte[] unsigned) {
        int start = 0;
        while (start < unsigned.length - 1 && unsigned[start] == 0) {
            start++;
        }
        boolean pad = (unsigned[start] & 0x80) != 0;
        int len = unsigned.length - start + (pad ? 1 : 0);
        byte[] out = new byte[2 + len];
        out[0] = 0x02;
        out[1] = (byte) len;
        System.arraycopy(unsigned, start, out, 2 + (pad ? 1 : 0), unsigned.length - start);
        return out;
    }

    /** r and s, each {@code n} bytes, from a DER ECDSA signature with short-form lengths (all nistP256 ones). */
    static byte[][] decodeDer(byte[] der, int n) {
        if (der.length < 8 || der[0] != 0x30 || (der[1] & 0xff) != der.length - 2) {
            throw new IllegalStateException("unexpected ECDSA signature encoding from AWS-LC");
        }
        int[] offset = {2};
        byte[] r = readDerInteger(der, offset, n);
        byte[] s = readDerInteger(der, offset, n);
        if (offset[0] != der.length) {
            throw new IllegalStateException("unexpected ECDSA signature encoding from AWS-LC");
        }
        return new byte[][]{r, s};
    }

    private static byte[] readDerInteger(byte[] der, int[] offset, int n) {
        int i = offset[0];
        if (der[i] != 0x02) {
            throw new IllegalStateException("unexpected ECDSA signature encoding from AWS-LC");
        }
        int len = der[i + 1] & 0xff;
        int start = i + 2;
        int end = start + len;
        offset[0] = end;
        while (start < end && der[start] == 0) {
            start++;
        }
        if (end - start > n) {
            throw new IllegalStateException("ECDSA value longer than the field");
        }
        byte[] out = new byte[n];
        System.arraycopy(der, start, out, n - (end - start), end - start);
        return out;
    }

    /** What was loaded, once per JVM. */
    private static final class Backend {
        final boolean available;
        final String description;
        private final ECParameterSpec parameters;
        private final ThreadLocal<Signature> signatures;
        private final ThreadLocal<KeyAgreement> agreements;
        private final ThreadLocal<KeyFactory> keyFactories;
        /** ACCP's accessor of the public key AWS-LC derived for a private key; null: BouncyCastle generates keys. */
        final Method publicKeyDerivation;

        private Backend(boolean available, String description, Provider provider, ECParameterSpec parameters,
                        Method publicKeyDerivation) {
            this.available = available;
            this.description = description;
            this.parameters = parameters;
            this.publicKeyDerivation = publicKeyDerivation;
            this.signatures = ThreadLocal.withInitial(() -> instance(() -> Signature.getInstance("NONEwithECDSA", provider)));
            this.agreements = ThreadLocal.withInitial(() -> instance(() -> KeyAgreement.getInstance("ECDH", provider)));
            this.keyFactories = ThreadLocal.withInitial(() -> instance(() -> KeyFactory.getInstance("EC", provider)));
        }

        PublicKey publicKey(ECPoint normalized) {
            try {
                java.security.spec.ECPoint w = new java.security.spec.ECPoint(
                        normalized.getAffineXCoord().toBigInteger(), normalized.getAffineYCoord().toBigInteger());
                return keyFactories.get().generatePublic(new ECPublicKeySpec(w, parameters));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AWS-LC refused a nistP256 point BouncyCastle accepted", e);
            }
        }

        PrivateKey privateKey(BigInteger d) {
            try {
                return keyFactories.get().generatePrivate(new ECPrivateKeySpec(d, parameters));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AWS-LC refused a nistP256 private scalar", e);
            }
        }

        ECPublicKey publicKeyOf(PrivateKey key) {
            try {
                return (ECPublicKey) publicKeyDerivation.invoke(key);
            } catch (ReflectiveOperationException | ClassCastException e) {
                throw new IllegalStateException("ACCP did not hand out the public key of a nistP256 private key", e);
            }
        }

        byte[][] sign(PrivateKey key, byte[] digest) {
            try {
                Signature signature = signatures.get();
                signature.initSign(key);
                signature.update(digest);
                return decodeDer(signature.sign(), EtsiCurve.NIST_P256.fieldBytes());
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("AWS-LC could not sign", e);
            }
        }

        boolean verify(PublicKey key, byte[] digest, byte[] r, byte[] s) {
            try {
                Signature signature = signatures.get();
                signature.initVerify(key);
                signature.update(digest);
                return signature.verify(encodeDer(r, s));
            } catch (GeneralSecurityException | RuntimeException e) {
                return false;
            }
        }

        byte[] agree(PrivateKey ours, PublicKey theirs) throws GeneralSecurityException {
            KeyAgreement agreement = agreements.get();
            agreement.init(ours);
            agreement.doPhase(theirs, true);
            return agreement.generateSecret();
        }

        static Backend load(String setting) {
            String mode = setting == null ? "auto" : setting.trim().toLowerCase(Locale.ROOT);
            Backend bc = new Backend(false, "BouncyCastle", null, null, null);
            if (mode.equals("off") || mode.equals("false")) {
                log.info("crypto: nistP256: {} ({}=off)", bc.description, SWITCH);
                return bc;
            }
            if (!(mode.equals("auto") || mode.equals("on") || mode.equals("true"))) {
                log.warn("crypto: {}={} is neither auto nor off; taken as auto", SWITCH, setting);
            }
            try {
                Provider accp = Accp.provider();
                Throwable loadingError = Accp.loadingError();
                if (loadingError != null) {
                    log.info("crypto: nistP256: {} (AWS-LC did not load here: {})", bc.description, loadingError.toString());
                    return bc;
                }
                KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", accp);
                generator.initialize(new ECGenParameterSpec("secp256r1"));
                ECParameterSpec spec = ((ECPublicKey) generator.generateKeyPair().getPublic()).getParams();
                String accpName = "AWS-LC (Amazon Corretto Crypto Provider " + Accp.version() + ")";
                Backend candidate = new Backend(true, accpName + " for ECDSA and ECDH", accp, spec, null);
                Optional<String> failure = selfTest(candidate);
                if (failure.isPresent()) {
                    log.warn("crypto: nistP256: {} (AWS-LC failed its self-test: {})", bc.description, failure.get());
                    return bc;
                }
                Optional<String> keyGenerationFailure;
                try {
                    Backend generating = new Backend(true, accpName + " for ECDSA, ECDH and key generation", accp, spec,
                            Accp.publicKeyDerivation());
                    keyGenerationFailure = keyGenerationSelfTest(generating);
                    if (keyGenerationFailure.isEmpty()) {
                        candidate = generating;
                    }
                } catch (ReflectiveOperationException | GeneralSecurityException | RuntimeException e) {
                    keyGenerationFailure = Optional.of("ACCP's public-key accessor unusable: " + e);
                }
                if (keyGenerationFailure.isPresent()) {
                    log.warn("crypto: nistP256: {}, BouncyCastle for key generation ({})", candidate.description,
                            keyGenerationFailure.get());
                    return new Backend(true, candidate.description + ", BouncyCastle for key generation", accp, spec, null);
                }
                log.info("crypto: nistP256: {}", candidate.description);
                return candidate;
            } catch (LinkageError | GeneralSecurityException | RuntimeException e) {
                log.info("crypto: nistP256: {} (AWS-LC unavailable: {})", bc.description, e.toString());
                return bc;
            }
        }

        /**
         * The public key AWS-LC derives for a scalar is BouncyCastle's d&middot;G, for a random scalar and
         * for 1 (G itself), and a key pair made so signs and agrees like any other.
         */
        private static Optional<String> keyGenerationSelfTest(Backend candidate) throws GeneralSecurityException {
            ECDomainParameters domain = EtsiCurve.NIST_P256.domain();
            SecureRandom random = new SecureRandom();
            BigInteger d = new BigInteger(255, random).add(BigInteger.TWO);
            for (BigInteger scalar : new BigInteger[]{BigInteger.ONE, d}) {
                java.security.spec.ECPoint w = candidate.publicKeyOf(candidate.privateKey(scalar)).getW();
                ECPoint expected = domain.getG().multiply(scalar).normalize();
                if (!w.getAffineX().equals(expected.getAffineXCoord().toBigInteger())
                        || !w.getAffineY().equals(expected.getAffineYCoord().toBigInteger())) {
                    return Optional.of("AWS-LC's d·G differs from BouncyCastle's");
                }
            }
            PrivateKey key = candidate.privateKey(d);
            byte[] z = candidate.agree(key, candidate.publicKeyOf(candidate.privateKey(BigInteger.TWO)));
            byte[] expected = BigIntegers.asUnsignedByteArray(32, domain.getG().multiply(d.shiftLeft(1)).normalize()
                    .getAffineXCoord().toBigInteger());
            if (!Arrays.equals(z, expected)) {
                return Optional.of("ECDH with a derived public key differs from BouncyCastle's");
            }
            return Optional.empty();
        }

        /** Each backend verifies the other's signature, and both compute the same ECDH value, through the code the services use. */
        private static Optional<String> selfTest(Backend candidate) throws GeneralSecurityException {
            ECDomainParameters domain = EtsiCurve.NIST_P256.domain();
            SecureRandom random = new SecureRandom();
            BigInteger d1 = new BigInteger(255, random).add(BigInteger.ONE);
            BigInteger d2 = new BigInteger(255, random).add(BigInteger.TWO);
            ECPoint q1 = domain.getG().multiply(d1).normalize();
            ECPoint q2 = domain.getG().multiply(d2).normalize();
            byte[] digest = new byte[32];
            random.nextBytes(digest);
            PrivateKey p1 = candidate.privateKey(d1);
            PublicKey n1 = candidate.publicKey(q1);

            byte[][] rs = candidate.sign(p1, digest);
            ECDSASigner bc = new ECDSASigner();
            bc.init(false, new ECPublicKeyParameters(q1, domain));
            if (!bc.verifySignature(digest, new BigInteger(1, rs[0]), new BigInteger(1, rs[1]))) {
                return Optional.of("BouncyCastle does not verify an AWS-LC signature");
            }
            bc.init(true, new ParametersWithRandom(new ECPrivateKeyParameters(d1, domain), random));
            BigInteger[] bcSig = bc.generateSignature(digest);
            byte[] r = BigIntegers.asUnsignedByteArray(32, bcSig[0]);
            byte[] s = BigIntegers.asUnsignedByteArray(32, bcSig[1]);
            if (!candidate.verify(n1, digest, r, s)) {
                return Optional.of("AWS-LC does not verify a BouncyCastle signature");
            }
            digest[0] ^= 1;
            if (candidate.verify(n1, digest, r, s)) {
                return Optional.of("AWS-LC verifies a signature over another digest");
            }
            byte[] nativeZ = candidate.agree(p1, candidate.publicKey(q2));
            byte[] bcZ = BigIntegers.asUnsignedByteArray(32, q2.multiply(d1).normalize().getAffineXCoord().toBigInteger());
            if (!Arrays.equals(nativeZ, bcZ)) {
                return Optional.of("ECDH values differ");
            }
            return Optional.empty();
        }
    }

    /**
     * The only code that names ACCP's class, so that nothing loads it while the backend is off: a
     * JDK 17 JVM that records a dynamic class-data archive ({@code -XX:ArchiveClassesAtExit}) crashes
     * at exit once ACCP's classes (a signed jar, which CDS skips) have made lambdas, so the local
     * cluster runs its archive-recording JVMs with the backend off.
     */
    private static final class Accp {
        static Provider provider() {
            return com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider.INSTANCE;
        }

        static Throwable loadingError() {
            return com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError();
        }

        static String version() {
            return com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider.INSTANCE.getVersionStr();
        }

        /**
         * ACCP's {@code EvpKey.CanDerivePublicKey.getPublicKey()}: the public key that AWS-LC computed
         * when it imported a private scalar ({@code ECPrivateKeySpec}). A public method of a public
         * interface, but one nested in a package-private class of ACCP 2.x and not documented: looked
         * up by name, so that an ACCP without it only turns native key generation off.
         */
        static Method publicKeyDerivation() throws ReflectiveOperationException {
            return Class.forName("com.amazon.corretto.crypto.provider.EvpKey$CanDerivePublicKey").getMethod("getPublicKey");
        }
    }

    private interface JcaFactory<T> {
        T create() throws GeneralSecurityException;
    }

    private static <T> T instance(JcaFactory<T> factory) {
        try {
            return factory.create();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
