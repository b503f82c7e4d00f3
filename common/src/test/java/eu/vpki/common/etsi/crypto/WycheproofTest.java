package eu.vpki.common.etsi.crypto;

import eu.vpki.common.error.PkiException;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.asn1.x9.ECNamedCurveTable;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.util.BigIntegers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every Wycheproof ECDSA and ECDH vector for secp256r1 (nistP256), brainpoolP256r1 and
 * brainpoolP384r1 (test-vectors/wycheproof/README.md) gets its expected verdict from every
 * backend that handles its curve: BouncyCastle (what runs when a fast path does not load), AWS-LC
 * for nistP256 and the Montgomery brainpool arithmetic, the last two reached through the same
 * entry points the services call ({@link EtsiPublicKey#fromEncodedPoint}, {@link EcdsaVerification},
 * {@link Ecies#sharedSecret} for a decryption, {@link Ecies#sharedSecretWithRecipient} for an
 * encryption, with {@link EtsiKeyPair#fromPrivateScalar} computing d&middot;G on the same backend).
 *
 * <p>The ETSI formats carry raw points and fixed-size r and s, so the ASN.1 around them in the
 * vectors (a DER signature, a SubjectPublicKeyInfo with its curve) is checked here, strictly: a DER
 * signature must be minimal DER, a key's curve must be the file's (named, or explicit parameters
 * equal to it). What reaches the backend is what the services would pass.
 */
class WycheproofTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An implementation of the EC operations. */
    enum Backend {
        BOUNCY_CASTLE, AWS_LC, MONTGOMERY;

        boolean handles(EtsiCurve curve) {
            return switch (this) {
                case BOUNCY_CASTLE -> true;
                case AWS_LC -> curve == EtsiCurve.NIST_P256;
                case MONTGOMERY -> curve != EtsiCurve.NIST_P256;
            };
        }

        /** Whether this JVM runs the backend (the fast ones are behind their load decision). */
        boolean active() {
            return switch (this) {
                case BOUNCY_CASTLE -> true;
                case AWS_LC -> NativeP256.enabled();
                case MONTGOMERY -> MontgomeryBrainpool.enabled();
            };
        }
    }

    static Stream<Arguments> ecdsaFiles() {
        return cases(List.of(
                new String[]{"ecdsa_secp256r1_sha256_p1363_test.json", "NIST_P256"},
                new String[]{"ecdsa_secp256r1_sha256_test.json", "NIST_P256"},
                new String[]{"ecdsa_brainpoolP256r1_sha256_p1363_test.json", "BRAINPOOL_P256R1"},
                new String[]{"ecdsa_brainpoolP256r1_sha256_test.json", "BRAINPOOL_P256R1"},
                new String[]{"ecdsa_brainpoolP384r1_sha384_p1363_test.json", "BRAINPOOL_P384R1"}));
    }

    static Stream<Arguments> ecdhFiles() {
        return cases(List.of(
                new String[]{"ecdh_secp256r1_test.json", "NIST_P256"},
                new String[]{"ecdh_brainpoolP256r1_test.json", "BRAINPOOL_P256R1"},
                new String[]{"ecdh_brainpoolP384r1_test.json", "BRAINPOOL_P384R1"}));
    }

    private static Stream<Arguments> cases(List<String[]> files) {
        List<Arguments> out = new ArrayList<>();
        for (String[] f : files) {
            EtsiCurve curve = EtsiCurve.valueOf(f[1]);
            for (Backend b : Backend.values()) {
                if (b.handles(curve)) {
                    out.add(Arguments.of(f[0], curve, b));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} on {2}")
    @MethodSource("ecdsaFiles")
    void ecdsa_everyVectorGetsItsVerdict(String file, EtsiCurve curve, Backend backend) throws IOException {
        assumeTrue(backend.active(), backend + " does not run in this JVM");
        JsonNode root = load(file);
        boolean p1363 = root.get("schema").asString().contains("p1363");
        List<String> wrong = new ArrayList<>();
        int count = 0;
        for (JsonNode group : root.get("testGroups")) {
            assertThat(group.get("publicKey").get("curve").asString()).isEqualTo(curve.curveName());
            byte[] encodedKey = HEX.parseHex(group.get("publicKey").get("uncompressed").asString());
            EtsiPublicKey key = backend == Backend.BOUNCY_CASTLE
                    ? BouncyCastleEc.decode(curve, encodedKey)
                    : EtsiPublicKey.fromEncodedPoint(curve, encodedKey);
            for (JsonNode test : group.get("tests")) {
                count++;
                String result = test.get("result").asString();
                byte[] digest = curve.hash().digest(HEX.parseHex(test.get("msg").asString()));
                byte[] sig = HEX.parseHex(test.get("sig").asString());
                EcdsaSignature signature = p1363 ? p1363(curve, sig) : der(curve, sig);
                boolean accepted;
                try {
                    accepted = signature != null && (backend == Backend.BOUNCY_CASTLE
                            ? BouncyCastleEc.verify(key, digest, signature)
                            : EcdsaVerification.verify(key, digest, signature));
                } catch (RuntimeException e) {
                    wrong.add(describe(test) + ": threw " + e);
                    continue;
                }
                if (result.equals("valid") && !accepted || result.equals("invalid") && accepted) {
                    wrong.add(describe(test) + ": " + (accepted ? "accepted" : "rejected"));
                }
            }
        }
        assertThat(count).as("vectors read").isEqualTo(root.get("numberOfTests").asInt());
        assertThat(wrong).as("%s on %s: vectors without their verdict", file, backend).isEmpty();
    }

    @ParameterizedTest(name = "{0} on {2}")
    @MethodSource("ecdhFiles")
    void ecdh_everyVectorGetsItsVerdict(String file, EtsiCurve curve, Backend backend) throws IOException {
        checkEcdhVectors(file, curve, backend, false);
    }

    /**
     * The same vectors in the direction of an ECIES encryption: the vector's private value as the
     * sender's ephemeral scalar, its public key as the recipient's (the path of
     * {@link Ecies#encrypt}: AWS-LC for nistP256, the Montgomery brainpool arithmetic, or
     * BouncyCastle's comb).
     */
    @ParameterizedTest(name = "{0} on {2}, as the sender")
    @MethodSource("ecdhFiles")
    void ecdhAsSender_everyVectorGetsItsVerdict(String file, EtsiCurve curve, Backend backend) throws IOException {
        checkEcdhVectors(file, curve, backend, true);
    }

    private static void checkEcdhVectors(String file, EtsiCurve curve, Backend backend, boolean asSender) throws IOException {
        assumeTrue(backend.active(), backend + " does not run in this JVM");
        JsonNode root = load(file);
        List<String> wrong = new ArrayList<>();
        int count = 0;
        int agreed = 0;
        for (JsonNode group : root.get("testGroups")) {
            assertThat(group.get("curve").asString()).isEqualTo(curve.curveName());
            for (JsonNode test : group.get("tests")) {
                count++;
                String result = test.get("result").asString();
                byte[] expected = HEX.parseHex(test.get("shared").asString());
                byte[] actual;
                try {
                    actual = agree(curve, backend, HEX.parseHex(test.get("public").asString()),
                            new BigInteger(test.get("private").asString(), 16), asSender);
                } catch (RuntimeException e) {
                    wrong.add(describe(test) + ": threw " + e);
                    continue;
                }
                if (actual == null) {
                    if (result.equals("valid")) {
                        wrong.add(describe(test) + ": rejected");
                    }
                } else if (result.equals("invalid")) {
                    wrong.add(describe(test) + ": accepted");
                } else if (!java.util.Arrays.equals(actual, expected)) {
                    wrong.add(describe(test) + ": shared secret " + HEX.formatHex(actual) + ", expected " + HEX.formatHex(expected));
                } else {
                    agreed++;
                }
            }
        }
        assertThat(count).as("vectors read").isEqualTo(root.get("numberOfTests").asInt());
        assertThat(wrong).as("%s on %s: vectors without their verdict", file, backend).isEmpty();
        assertThat(agreed).as("vectors with a shared secret").isGreaterThan(count / 3);
    }

    /**
     * The shared secret, or null when the key is refused: by the SubjectPublicKeyInfo checks of this
     * test or by the backend with the project's typed error. Any other exception escapes.
     */
    private static byte[] agree(EtsiCurve curve, Backend backend, byte[] spki, BigInteger privateValue, boolean asSender) {
        byte[] point = pointOf(curve, spki);
        if (point == null) {
            return null;
        }
        try {
            EtsiKeyPair ours = EtsiKeyPair.fromPrivateScalar(curve, BigIntegers.asUnsignedByteArray(privateValue));
            if (backend == Backend.BOUNCY_CASTLE) {
                EtsiPublicKey theirs = BouncyCastleEc.decode(curve, point);
                return asSender ? BouncyCastleEc.sharedXWithComb(ours, theirs) : BouncyCastleEc.sharedX(ours, theirs);
            }
            EtsiPublicKey theirs = EtsiPublicKey.fromEncodedPoint(curve, point);
            return asSender ? Ecies.sharedSecretWithRecipient(ours, theirs) : Ecies.sharedSecret(ours, theirs);
        } catch (PkiException e) {
            return null;
        }
    }

    /** The point of a DER SubjectPublicKeyInfo whose key is on {@code curve}; null for anything else. */
    private static byte[] pointOf(EtsiCurve curve, byte[] der) {
        SubjectPublicKeyInfo info;
        try {
            info = SubjectPublicKeyInfo.getInstance(ASN1Primitive.fromByteArray(der));
            if (!java.util.Arrays.equals(info.getEncoded("DER"), der)) {
                return null; // BER or another non-DER encoding
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (!X9ObjectIdentifiers.id_ecPublicKey.equals(info.getAlgorithm().getAlgorithm())) {
            return null;
        }
        ASN1Encodable parameters = info.getAlgorithm().getParameters();
        if (parameters instanceof ASN1ObjectIdentifier oid) {
            if (!oid.equals(ECNamedCurveTable.getOID(curve.curveName()))) {
                return null;
            }
        } else if (parameters instanceof ASN1Sequence) {
            try {
                X9ECParameters explicit = X9ECParameters.getInstance(parameters);
                ECDomainParameters ours = curve.domain();
                if (!explicit.getCurve().equals(ours.getCurve()) || !explicit.getG().equals(ours.getG())
                        || !explicit.getN().equals(ours.getN()) || explicit.getH() == null || !explicit.getH().equals(ours.getH())) {
                    return null;
                }
            } catch (RuntimeException e) {
                return null; // parameters that do not even describe a curve with a point on it
            }
        } else {
            return null;
        }
        if (info.getPublicKeyData().getPadBits() != 0) {
            return null;
        }
        return info.getPublicKeyData().getBytes();
    }

    /** r || s of exactly twice the field length; null otherwise. */
    private static EcdsaSignature p1363(EtsiCurve curve, byte[] sig) {
        int n = curve.fieldBytes();
        if (sig.length != 2 * n) {
            return null;
        }
        return new EcdsaSignature(curve, java.util.Arrays.copyOfRange(sig, 0, n), java.util.Arrays.copyOfRange(sig, n, 2 * n));
    }

    /** SEQUENCE { INTEGER r, INTEGER s } in minimal DER with r and s positive and fitting the field; null otherwise. */
    private static EcdsaSignature der(EtsiCurve curve, byte[] sig) {
        int[] at = {0};
        if (sig.length < 2 || sig[0] != 0x30) {
            return null;
        }
        at[0] = 1;
        int length = derLength(sig, at);
        if (length < 0 || at[0] + length != sig.length) {
            return null;
        }
        BigInteger r = derInteger(sig, at);
        BigInteger s = r == null ? null : derInteger(sig, at);
        if (s == null || at[0] != sig.length) {
            return null;
        }
        int n = curve.fieldBytes();
        if (r.bitLength() > 8 * n || s.bitLength() > 8 * n) {
            return null;
        }
        return new EcdsaSignature(curve, BigIntegers.asUnsignedByteArray(n, r), BigIntegers.asUnsignedByteArray(n, s));
    }

    private static int derLength(byte[] b, int[] at) {
        if (at[0] >= b.length) {
            return -1;
        }
        int first = b[at[0]++] & 0xFF;
        if (first < 0x80) {
            return first;
        }
        if (first != 0x81 || at[0] >= b.length) {
            return -1; // longer forms never occur for these sizes; 0x80 is BER's indefinite length
        }
        int value = b[at[0]++] & 0xFF;
        return value < 0x80 ? -1 : value; // a long form for a short length is not DER
    }

    private static BigInteger derInteger(byte[] b, int[] at) {
        if (at[0] >= b.length || b[at[0]++] != 0x02) {
            return null;
        }
        int length = derLength(b, at);
        if (length <= 0 || at[0] + length > b.length) {
            return null;
        }
        byte[] content = java.util.Arrays.copyOfRange(b, at[0], at[0] + length);
        at[0] += length;
        if ((content[0] & 0x80) != 0) {
            return null; // negative
        }
        if (content.length > 1 && content[0] == 0 && (content[1] & 0x80) == 0) {
            return null; // not minimal
        }
        return new BigInteger(1, content);
    }

    private static JsonNode load(String file) throws IOException {
        try (InputStream in = WycheproofTest.class.getResourceAsStream("/test-vectors/wycheproof/" + file)) {
            assertThat(in).as("test vector file %s", file).isNotNull();
            return JSON.readTree(in);
        }
    }

    private static String describe(JsonNode test) {
        return "tcId " + test.get("tcId").asInt() + " (" + test.get("comment").asString() + ", " + test.get("result").asString() + ")";
    }
}
