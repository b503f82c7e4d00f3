package eu.vpki.common.etsi.crypto.pkcs11;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.crypto.SoftwareKeyAgreement;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.security.AuthProvider;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.ProviderException;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Security;
import java.security.cert.Certificate;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One PKCS#11 token, opened with the JDK's SunPKCS11 provider and logged in with the user PIN; the
 * authority's keys are found by their label (the alias SunPKCS11's key store gives a private key
 * stored with a certificate: {@link KeyCeremony} stores an X.509 placeholder beside each key, which
 * carries no trust). Private keys stay in the token: signing is {@code CKM_ECDSA} over the digest the
 * caller computed, key agreement {@code CKM_ECDH1_DERIVE}, whose result Z (a per-message value, not a
 * key) is read back for the ECIES KDF.
 *
 * <p>Failures: a configuration that cannot work (module, slot, PIN, a missing label, a key on another
 * curve) fails {@link #open} and the lookups with {@link ErrorCode#KEY_STORE_FAILURE}. At run time an
 * operation that fails is tried once more after a re-login and a fresh lookup of every key (a token or
 * HSM restart invalidates sessions and object handles); if that fails too, the token is DOWN
 * ({@link #health()}) and the operation fails with {@link ErrorCode#KEY_STORE_FAILURE}. It comes back UP
 * when an operation succeeds again. A signature that does not verify, or a key agreement that disagrees
 * with the software computation in {@link #check()}, marks it DOWN for good (until restart): such a token
 * must be looked at, even though every signature is still verified before it is returned.
 *
 * <p>Sessions: SunPKCS11 keeps its own pool, opening a session when no idle one is free (up to the
 * token's maximum) and keeping idle ones for reuse, so the calling threads (the service's workers)
 * bound the number of sessions. Thread-safe.
 */
public final class Pkcs11Token implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Pkcs11Token.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    /**
     * The secret an ECDH derive yields is Z, which the ECIES KDF needs in memory: a session object,
     * readable. Without this SoftHSM2 marks it sensitive and SunPKCS11 cannot read it (measured:
     * CKR_ATTRIBUTE_SENSITIVE).
     */
    private static final String DERIVED_SECRET_ATTRIBUTES = """
            attributes(*, CKO_SECRET_KEY, CKK_GENERIC_SECRET) = {
              CKA_TOKEN = false
              CKA_SENSITIVE = false
              CKA_EXTRACTABLE = true
            }
            """;

    enum Usage { SIGN, AGREE }

    record TokenKey(String label, Usage usage, PrivateKey privateKey, EtsiPublicKey publicKey, int generation) {
    }

    @FunctionalInterface
    interface KeyOperation<T> {
        T apply(TokenKey key) throws GeneralSecurityException;
    }

    private final Pkcs11Settings settings;
    private final Provider provider;
    private final KeyStore keyStore;
    private final Clock clock;
    private final SecureRandom random;
    private final Map<String, TokenKey> keys = new ConcurrentHashMap<>();
    private volatile int generation;
    private volatile TokenHealth health;
    /** Set once a token answer was wrong (not merely failing): health stays DOWN with it. */
    private volatile String fault;

    private Pkcs11Token(Pkcs11Settings settings, Provider provider, KeyStore keyStore, Clock clock, SecureRandom random) {
        this.settings = settings;
        this.provider = provider;
        this.keyStore = keyStore;
        this.clock = clock;
        this.random = random;
        this.health = TokenHealth.up(clock.instant());
    }

    /**
     * Loads the module, selects the slot and logs in.
     *
     * @throws PkiException {@link ErrorCode#KEY_STORE_FAILURE} naming what failed (module, slot, PIN)
     */
    public static Pkcs11Token open(Pkcs11Settings settings, Clock clock, SecureRandom random) {
        return open(settings, "", clock, random);
    }

    /** As {@link #open(Pkcs11Settings, Clock, SecureRandom)} with further SunPKCS11 configuration lines (the ceremony's key attributes). */
    static Pkcs11Token open(Pkcs11Settings settings, String extraConfiguration, Clock clock, SecureRandom random) {
        Provider provider = configure(settings, DERIVED_SECRET_ATTRIBUTES + extraConfiguration);
        try {
            KeyStore ks = KeyStore.getInstance("PKCS11", provider);
            ks.load(null, settings.pin());
            LOG.info("{}: logged in ({} key entries)", settings, ks.size());
            return new Pkcs11Token(settings, provider, ks, clock, random);
        } catch (IOException | GeneralSecurityException | ProviderException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, settings + ": login failed (" + rootMessage(e)
                    + "): check the PIN (vpki.keystore.pkcs11.pin-file or " + Pkcs11Settings.PIN_ENV + ") and the slot", e);
        }
    }

    private static Provider configure(Pkcs11Settings settings, String extra) {
        if (!java.nio.file.Files.isReadable(settings.library())) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "PKCS#11 module " + settings.library() + " not found or not readable");
        }
        String config = "--name = vpki-" + INSTANCES.incrementAndGet() + "\n"
                + "library = " + settings.library().toAbsolutePath() + "\n"
                + settings.slotLines() + extra;
        Provider base = Security.getProvider("SunPKCS11");
        if (base == null) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "this JVM has no SunPKCS11 provider (module jdk.crypto.cryptoki)");
        }
        try {
            return base.configure(config);
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, settings + ": cannot open the token (" + rootMessage(e) + ")", e);
        }
    }

    /**
     * The signer of the key labelled {@code label}.
     *
     * @param expected the curve the authority's configuration names, or null for any
     * @throws PkiException {@link ErrorCode#KEY_STORE_FAILURE} when there is no such key or it is on another curve
     */
    public EtsiSigner signer(String label, EtsiCurve expected) {
        TokenKey key = register(label, Usage.SIGN, expected);
        return new Pkcs11Signer(this, label, key.publicKey());
    }

    /** The key agreement of the encryption key labelled {@code label}; as {@link #signer}. */
    public EtsiKeyAgreement keyAgreement(String label, EtsiCurve expected) {
        TokenKey key = register(label, Usage.AGREE, expected);
        if (!key.publicKey().curve().encryptionCapable()) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "key '" + label + "' in " + settings + " is on "
                    + key.publicKey().curve() + ", which has no ECIES: not an encryption key");
        }
        return new Pkcs11KeyAgreement(this, label, key.publicKey());
    }

    /** The public key under {@code label}, or empty. */
    public java.util.Optional<EtsiPublicKey> publicKey(String label) {
        try {
            if (!keyStore.isKeyEntry(label)) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(lookup(label, Usage.SIGN).publicKey());
        } catch (GeneralSecurityException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, settings + ": cannot read key '" + label + "': " + rootMessage(e), e);
        }
    }

    /** The labels of the keys in the token. */
    public List<String> labels() {
        try {
            List<String> out = new ArrayList<>(Collections.list(keyStore.aliases()));
            Collections.sort(out);
            return out;
        } catch (GeneralSecurityException | ProviderException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, settings + ": cannot list keys: " + rootMessage(e), e);
        }
    }

    private TokenKey register(String label, Usage usage, EtsiCurve expected) {
        TokenKey key;
        try {
            key = lookup(label, usage);
        } catch (GeneralSecurityException | ProviderException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, settings + ": cannot read key '" + label + "': " + rootMessage(e), e);
        }
        if (expected != null && key.publicKey().curve() != expected) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "key '" + label + "' in " + settings + " is on "
                    + key.publicKey().curve().curveName() + ", the configuration expects " + expected.curveName());
        }
        keys.put(label, key);
        return key;
    }

    private TokenKey lookup(String label, Usage usage) throws GeneralSecurityException {
        if (label == null || !keyStore.isKeyEntry(label)) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE,
                    settings + " has no key labelled '" + label + "' (labels: " + labels() + ")");
        }
        PrivateKey privateKey = (PrivateKey) keyStore.getKey(label, null);
        Certificate holder = keyStore.getCertificate(label);
        if (privateKey == null || holder == null) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, settings + ": key '" + label + "' has no private key or no certificate");
        }
        return new TokenKey(label, usage, privateKey, publicKey(holder.getPublicKey(), label), generation);
    }

    /** Our form of a JCA public key, its curve from the named-curve OID. */
    static EtsiPublicKey publicKey(PublicKey key, String label) {
        try {
            SubjectPublicKeyInfo info = SubjectPublicKeyInfo.getInstance(key.getEncoded());
            ASN1ObjectIdentifier oid = ASN1ObjectIdentifier.getInstance(info.getAlgorithm().getParameters());
            String name = ECNamedCurveTable.getName(oid);
            EtsiCurve curve = EtsiCurve.parse(name == null ? oid.getId() : name);
            return EtsiPublicKey.fromEncodedPoint(curve, info.getPublicKeyData().getBytes());
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "key '" + label + "' is not an EC key on a named curve this PKI uses: "
                    + rootMessage(e), e);
        }
    }

    /**
     * Runs {@code operation} on the current handle of {@code label}; on a failure, re-logs in, looks
     * the keys up again and tries once more.
     */
    <T> T use(String label, KeyOperation<T> operation) {
        TokenKey key = keys.get(label);
        try {
            T result = operation.apply(key);
            recovered();
            return result;
        } catch (GeneralSecurityException | ProviderException first) {
            LOG.warn("{}: operation with key '{}' failed ({}); logging in again", settings, label, rootMessage(first));
            TokenKey again;
            try {
                again = reconnect(key.generation(), label);
            } catch (PkiException e) {
                down(e.getMessage());
                throw e;
            }
            try {
                T result = operation.apply(again);
                recovered();
                return result;
            } catch (GeneralSecurityException | ProviderException second) {
                String reason = settings + ": key '" + label + "' unusable after a re-login: " + rootMessage(second);
                down(reason);
                throw new PkiException(ErrorCode.KEY_STORE_FAILURE, reason, second);
            }
        }
    }

    private synchronized TokenKey reconnect(int seen, String label) {
        if (generation == seen) {
            try {
                keyStore.load(null, settings.pin());
            } catch (IOException | GeneralSecurityException | ProviderException e) {
                throw new PkiException(ErrorCode.KEY_STORE_FAILURE, settings + ": re-login failed: " + rootMessage(e), e);
            }
            int next = generation + 1;
            for (TokenKey old : List.copyOf(keys.values())) {
                TokenKey fresh;
                try {
                    fresh = lookup(old.label(), old.usage());
                } catch (GeneralSecurityException | ProviderException e) {
                    throw new PkiException(ErrorCode.KEY_STORE_FAILURE, settings + ": key '" + old.label() + "' unreadable after re-login: "
                            + rootMessage(e), e);
                }
                if (!fresh.publicKey().equals(old.publicKey())) {
                    throw new PkiException(ErrorCode.KEY_STORE_FAILURE,
                            settings + ": key '" + old.label() + "' is another key after re-login");
                }
                keys.put(old.label(), new TokenKey(fresh.label(), fresh.usage(), fresh.privateKey(), fresh.publicKey(), next));
            }
            generation = next;
            LOG.info("{}: logged in again, {} keys found", settings, keys.size());
        }
        return keys.get(label);
    }

    /**
     * Active check: one signature with each signing key (verified as always) and one key agreement
     * with each encryption key, compared with the same agreement computed in software from a fresh
     * ephemeral key. Cheap enough for a health probe (a few milliseconds).
     */
    public TokenHealth check() {
        for (TokenKey key : List.copyOf(keys.values())) {
            try {
                if (key.usage() == Usage.SIGN) {
                    byte[] digest = new byte[key.publicKey().curve().hash().length()];
                    random.nextBytes(digest);
                    new Pkcs11Signer(this, key.label(), key.publicKey()).signDigest(digest);
                } else {
                    EtsiKeyPair ephemeral = EtsiKeyPair.generate(key.publicKey().curve(), random);
                    byte[] ours = new Pkcs11KeyAgreement(this, key.label(), key.publicKey()).sharedX(ephemeral.publicKey());
                    byte[] expected = new SoftwareKeyAgreement(ephemeral).sharedX(key.publicKey());
                    if (!java.security.MessageDigest.isEqual(ours, expected)) {
                        fault("key agreement with '" + key.label() + "' disagrees with the software computation");
                    }
                }
            } catch (PkiException e) {
                LOG.warn("{}: health check of key '{}' failed: {}", settings, key.label(), e.getMessage());
            }
        }
        return health();
    }

    /** UP, or DOWN with the reason. */
    public TokenHealth health() {
        String f = fault;
        return f != null ? TokenHealth.down(f, health.since()) : health;
    }

    /** The token gave a wrong answer: DOWN until the service restarts. */
    void fault(String reason) {
        if (fault == null) {
            LOG.error("{}: {}: the token is marked DOWN", settings, reason);
            fault = reason;
            health = TokenHealth.down(reason, clock.instant());
        }
    }

    private void down(String reason) {
        if (health.up()) {
            LOG.error("{}: DOWN: {}", settings, reason);
        }
        health = TokenHealth.down(reason, clock.instant());
    }

    private void recovered() {
        if (!health.up() && fault == null) {
            LOG.info("{}: UP again", settings);
            health = TokenHealth.up(clock.instant());
        }
    }

    Provider provider() {
        return provider;
    }

    KeyStore keyStore() {
        return keyStore;
    }

    Pkcs11Settings settings() {
        return settings;
    }

    /** Logs out. */
    @Override
    public void close() {
        try {
            if (provider instanceof AuthProvider auth) {
                auth.logout();
            }
        } catch (javax.security.auth.login.LoginException | ProviderException e) {
            LOG.debug("{}: logout failed: {}", settings, e.getMessage());
        }
    }

    @Override
    public String toString() {
        return settings.toString();
    }

    static String rootMessage(Throwable e) {
        StringBuilder sb = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); c != null && c != e; c = c.getCause()) {
            if (c.getMessage() != null && !sb.toString().contains(c.getMessage())) {
                sb.append(": ").append(c.getMessage());
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return sb.toString();
    }
}
