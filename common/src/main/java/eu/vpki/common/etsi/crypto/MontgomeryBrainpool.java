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

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * Decides whether brainpoolP256r1 and brainpoolP384r1 run in this package's Montgomery arithmetic
 * ({@link BrainpoolCurve}: pure Java, constant time for secret scalars, 3-4x BouncyCastle's generic
 * arithmetic; docs/design-brainpool-arithmetic.md) or in BouncyCastle. Key generation, signing,
 * verification, point decoding and ECDH all move together, so a key never mixes the two.
 *
 * <p>It is on unless the system property {@code vpki.crypto.brainpool} or the environment variable
 * {@code VPKI_CRYPTO_BRAINPOOL} says {@code off}, and only after a start-up self-test against
 * BouncyCastle passes on both curves (the same public key from a scalar, each verifies the other's
 * signature, a changed digest fails, the same ECDH value); otherwise BouncyCastle runs the brainpool
 * curves and the log says why. Decided once per JVM, at the first brainpool operation, with one
 * {@code crypto: brainpool ...} log line.
 */
final class MontgomeryBrainpool {
    private static final Logger log = LoggerFactory.getLogger(MontgomeryBrainpool.class);
    /** System property (or {@code VPKI_CRYPTO_BRAINPOOL} in the environment): {@code auto} (default) or {@code off}. */
    static final String SWITCH = "vpki.crypto.brainpool";

    private MontgomeryBrainpool() {
    }

    /** Whether {@code curve}'s operations run in the Montgomery arithmetic in this JVM (never for nistP256). */
    static boolean handles(EtsiCurve curve) {
        return curve != EtsiCurve.NIST_P256 && State.ON.enabled;
    }

    /** Whether the Montgomery arithmetic runs the brainpool curves in this JVM. */
    static boolean enabled() {
        return State.ON.enabled;
    }

    /** One line for logs and reports: which implementation runs the brainpool curves. */
    static String description() {
        return State.ON.description;
    }

    /** The arithmetic of a brainpool curve. */
    static BrainpoolCurve arithmetic(EtsiCurve curve) {
        return switch (curve) {
            case BRAINPOOL_P256R1 -> BrainpoolCurve.P256R1;
            case BRAINPOOL_P384R1 -> BrainpoolCurve.P384R1;
            case NIST_P256 -> throw new IllegalArgumentException("nistP256 has no Montgomery brainpool arithmetic");
        };
    }

    /** Decided on first use (a holder, so that nistP256-only code never runs the self-test). */
    private static final class State {
        static final State ON = load(System.getProperty(SWITCH, System.getenv("VPKI_CRYPTO_BRAINPOOL")));
        final boolean enabled;
        final String description;

        private State(boolean enabled, String description) {
            this.enabled = enabled;
            this.description = description;
        }

        static State load(String setting) {
            String mode = setting == null ? "auto" : setting.trim().toLowerCase(Locale.ROOT);
            State bc = new State(false, "BouncyCastle for brainpoolP256r1 and brainpoolP384r1");
            if (mode.equals("off") || mode.equals("false")) {
                log.info("crypto: brainpool: {} ({}=off)", bc.description, SWITCH);
                return bc;
            }
            if (!(mode.equals("auto") || mode.equals("on") || mode.equals("true"))) {
                log.warn("crypto: {}={} is neither auto nor off; taken as auto", SWITCH, setting);
            }
            try {
                for (EtsiCurve curve : new EtsiCurve[]{EtsiCurve.BRAINPOOL_P256R1, EtsiCurve.BRAINPOOL_P384R1}) {
                    Optional<String> failure = selfTest(curve, arithmetic(curve));
                    if (failure.isPresent()) {
                        log.warn("crypto: brainpool: {} (the Montgomery arithmetic failed its self-test on {}: {})",
                                bc.description, curve.curveName(), failure.get());
                        return bc;
                    }
                }
            } catch (RuntimeException | LinkageError e) {
                log.warn("crypto: brainpool: {} (the Montgomery arithmetic failed its self-test: {})", bc.description, e.toString());
                return bc;
            }
            State on = new State(true, "vpki Montgomery arithmetic (pure Java, constant time) for brainpoolP256r1 and brainpoolP384r1");
            log.info("crypto: brainpool: {}", on.description);
            return on;
        }

        /** The same key, signatures that verify both ways, a changed digest that fails, the same ECDH value. */
        static Optional<String> selfTest(EtsiCurve curve, BrainpoolCurve ours) {
            ECDomainParameters domain = curve.domain();
            SecureRandom random = new SecureRandom();
            int n = ours.order.byteLength;
            byte[] d1 = ours.randomScalar(random);
            byte[] d2 = ours.randomScalar(random);
            BrainpoolCurve.PublicPoint q1 = ours.multiplyBase(d1);
            ECPoint bcQ1 = domain.getG().multiply(new BigInteger(1, d1)).normalize();
            if (!Arrays.equals(q1.x, BigIntegers.asUnsignedByteArray(n, bcQ1.getAffineXCoord().toBigInteger()))
                    || !Arrays.equals(q1.y, BigIntegers.asUnsignedByteArray(n, bcQ1.getAffineYCoord().toBigInteger()))) {
                return Optional.of("a scalar gives another public key than in BouncyCastle");
            }
            byte[] digest = new byte[curve.hash().length()];
            random.nextBytes(digest);
            byte[][] rs = ours.sign(d1, digest, random);
            ECDSASigner bc = new ECDSASigner();
            bc.init(false, new ECPublicKeyParameters(bcQ1, domain));
            if (!bc.verifySignature(digest, new BigInteger(1, rs[0]), new BigInteger(1, rs[1]))) {
                return Optional.of("BouncyCastle does not verify our signature");
            }
            bc.init(true, new ParametersWithRandom(new ECPrivateKeyParameters(new BigInteger(1, d1), domain), random));
            BigInteger[] theirs = bc.generateSignature(digest);
            byte[] r = BigIntegers.asUnsignedByteArray(n, theirs[0]);
            byte[] s = BigIntegers.asUnsignedByteArray(n, theirs[1]);
            BrainpoolCurve.PublicPoint decoded = ours.decode(bcQ1.getEncoded(true));
            if (!ours.verify(decoded, digest, r, s)) {
                return Optional.of("we do not verify a BouncyCastle signature");
            }
            digest[0] ^= 1;
            if (ours.verify(decoded, digest, r, s)) {
                return Optional.of("we verify a signature over another digest");
            }
            ECPoint bcQ2 = domain.getG().multiply(new BigInteger(1, d2)).normalize();
            byte[] z = ours.sharedX(d1, ours.decode(bcQ2.getEncoded(false)));
            byte[] bcZ = BigIntegers.asUnsignedByteArray(n,
                    bcQ2.multiply(new BigInteger(1, d1)).normalize().getAffineXCoord().toBigInteger());
            if (!Arrays.equals(z, bcZ)) {
                return Optional.of("ECDH values differ");
            }
            return Optional.empty();
        }
    }
}
