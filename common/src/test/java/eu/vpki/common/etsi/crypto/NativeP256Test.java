package eu.vpki.common.etsi.crypto;

import org.bouncycastle.crypto.agreement.ECDHBasicAgreement;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.util.BigIntegers;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The native nistP256 backend against BouncyCastle, operation by operation: every signature made
 * by one verifies in the other, both reject what is not a valid signature, and ECDH gives the same
 * value. Runs where AWS-LC loads (linux-x86_64: this project's machines and its CI, where the test
 * also insists that it does load).
 */
class NativeP256Test {
    private static final HexFormat HEX = HexFormat.of();
    private final SecureRandom random = new SecureRandom(new byte[]{7});

    /** The cross-checks need the native backend; {@link #loads_onLinuxX8664} fails where it should load and did not. */
    private static void assumeNativeBackend() {
        assumeTrue(NativeP256.enabled(), "AWS-LC is not loaded in this JVM: " + NativeP256.description());
    }

    @Test
    void loads_onLinuxX8664() {
        assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")
                && System.getProperty("os.arch").equals("amd64"));
        String setting = System.getProperty(NativeP256.SWITCH, System.getenv("VPKI_CRYPTO_NATIVE"));
        assumeTrue(setting == null || !setting.trim().equalsIgnoreCase("off"), "native backend switched off");
        assertThat(NativeP256.enabled()).isTrue();
        assertThat(CryptoBackend.nativeP256()).isTrue();
        assertThat(CryptoBackend.description()).startsWith("nistP256: AWS-LC");
        assertThat(NativeP256.handles(EtsiCurve.NIST_P256)).isTrue();
        assertThat(NativeP256.handles(EtsiCurve.BRAINPOOL_P256R1)).isFalse();
        assertThat(NativeP256.handles(EtsiCurve.BRAINPOOL_P384R1)).isFalse();
        assertThat(NativeP256.generatesKeys(EtsiCurve.NIST_P256)).as("key generation in AWS-LC").isTrue();
        assertThat(NativeP256.generatesKeys(EtsiCurve.BRAINPOOL_P256R1)).isFalse();
        assertThat(CryptoBackend.description()).startsWith("nistP256: AWS-LC").contains("ECDSA, ECDH and key generation");
    }

    /**
     * Keys generated in AWS-LC: the public key is BouncyCastle's d&middot;G of the private scalar, and the
     * caller's randomness alone decides the key (the same seeded generator gives the same key twice).
     */
    @Test
    void generatedKey_isBouncyCastlesMultiple_andTheCallersRandomnessDecidesIt() throws Exception {
        assumeNativeBackend();
        assumeTrue(NativeP256.generatesKeys(EtsiCurve.NIST_P256), "key generation does not run in AWS-LC here");
        for (int i = 0; i < 200; i++) {
            EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, random);
            BigInteger d = new BigInteger(1, key.privateScalar());
            assertThat(key.publicKey().uncompressed()).as("d·G of key %d", i)
                    .isEqualTo(EtsiCurve.NIST_P256.domain().getG().multiply(d).normalize().getEncoded(false));
        }
        java.security.SecureRandom first = java.security.SecureRandom.getInstance("SHA1PRNG");
        first.setSeed(20L);
        java.security.SecureRandom second = java.security.SecureRandom.getInstance("SHA1PRNG");
        second.setSeed(20L);
        EtsiKeyPair a = EtsiKeyPair.generate(EtsiCurve.NIST_P256, first);
        EtsiKeyPair b = EtsiKeyPair.generate(EtsiCurve.NIST_P256, second);
        assertThat(a.privateScalar()).isEqualTo(b.privateScalar());
        assertThat(a.publicKey()).isEqualTo(b.publicKey());
        assertThat(EtsiKeyPair.generate(EtsiCurve.NIST_P256, first).publicKey()).isNotEqualTo(a.publicKey());
    }

    /** The edge scalars 1 and n - 1: G and -G. */
    @Test
    void keyPair_ofEdgeScalars_isGAndMinusG() {
        assumeNativeBackend();
        assumeTrue(NativeP256.generatesKeys(EtsiCurve.NIST_P256), "key generation does not run in AWS-LC here");
        org.bouncycastle.math.ec.ECPoint g = EtsiCurve.NIST_P256.domain().getG().normalize();
        BigInteger n = EtsiCurve.NIST_P256.domain().getN();
        assertThat(NativeP256.keyPair(BigIntegers.asUnsignedByteArray(32, BigInteger.ONE)).publicKey().uncompressed())
                .isEqualTo(g.getEncoded(false));
        assertThat(NativeP256.keyPair(BigIntegers.asUnsignedByteArray(32, n.subtract(BigInteger.ONE))).publicKey().uncompressed())
                .isEqualTo(g.negate().normalize().getEncoded(false));
    }

    @Test
    void nativeSignature_verifiesInBouncyCastle_andOurVerifierAgrees() {
        assumeNativeBackend();
        for (int i = 0; i < 200; i++) {
            EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, random);
            byte[] digest = digest();
            EcdsaSignature signature = new SoftwareSigner(key, random).signDigest(digest);

            ECDSASigner bc = new ECDSASigner();
            bc.init(false, key.publicKey().parameters());
            assertThat(bc.verifySignature(digest, new BigInteger(1, signature.r()), new BigInteger(1, signature.s())))
                    .as("BouncyCastle verifies AWS-LC's signature %d", i).isTrue();
            assertThat(EcdsaVerification.verify(key.publicKey(), digest, signature)).isTrue();
        }
    }

    @Test
    void bouncyCastleSignature_verifiesNatively_andNothingElseDoes() {
        assumeNativeBackend();
        for (int i = 0; i < 200; i++) {
            EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, random);
            byte[] digest = digest();
            ECDSASigner bc = new ECDSASigner();
            bc.init(true, new ParametersWithRandom(key.privateParameters(), random));
            BigInteger[] rs = bc.generateSignature(digest);
            EcdsaSignature signature = new EcdsaSignature(EtsiCurve.NIST_P256,
                    BigIntegers.asUnsignedByteArray(32, rs[0]), BigIntegers.asUnsignedByteArray(32, rs[1]));

            assertThat(EcdsaVerification.verify(key.publicKey(), digest, signature))
                    .as("AWS-LC verifies BouncyCastle's signature %d", i).isTrue();
            byte[] other = digest.clone();
            other[i % 32] ^= 1;
            assertThat(EcdsaVerification.verify(key.publicKey(), other, signature)).isFalse();
            EtsiKeyPair stranger = EtsiKeyPair.generate(EtsiCurve.NIST_P256, random);
            assertThat(EcdsaVerification.verify(stranger.publicKey(), digest, signature)).isFalse();
        }
    }

    @Test
    void verify_rejectsOutOfRangeValues() {
        assumeNativeBackend();
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, random);
        byte[] digest = digest();
        EcdsaSignature good = new SoftwareSigner(key, random).signDigest(digest);
        byte[] n = BigIntegers.asUnsignedByteArray(32, EtsiCurve.NIST_P256.domain().getN());
        byte[] zero = new byte[32];
        byte[] ff = new byte[32];
        java.util.Arrays.fill(ff, (byte) 0xff);

        assertThat(EcdsaVerification.verify(key.publicKey(), digest, new EcdsaSignature(EtsiCurve.NIST_P256, zero, good.s()))).isFalse();
        assertThat(EcdsaVerification.verify(key.publicKey(), digest, new EcdsaSignature(EtsiCurve.NIST_P256, good.r(), zero))).isFalse();
        assertThat(EcdsaVerification.verify(key.publicKey(), digest, new EcdsaSignature(EtsiCurve.NIST_P256, n, good.s()))).isFalse();
        assertThat(EcdsaVerification.verify(key.publicKey(), digest, new EcdsaSignature(EtsiCurve.NIST_P256, good.r(), ff))).isFalse();
        // s and n - s both verify in ECDSA; the original stays valid
        byte[] negS = BigIntegers.asUnsignedByteArray(32, EtsiCurve.NIST_P256.domain().getN().subtract(new BigInteger(1, good.s())));
        assertThat(EcdsaVerification.verify(key.publicKey(), digest, new EcdsaSignature(EtsiCurve.NIST_P256, good.r(), negS))).isTrue();
        assertThat(EcdsaVerification.verify(key.publicKey(), digest, good)).isTrue();
    }

    @Test
    void ecdh_givesBouncyCastlesValue_andEciesRoundTrips() {
        assumeNativeBackend();
        for (int i = 0; i < 100; i++) {
            EtsiKeyPair ours = EtsiKeyPair.generate(EtsiCurve.NIST_P256, random);
            EtsiKeyPair theirs = EtsiKeyPair.generate(EtsiCurve.NIST_P256, random);
            ECDHBasicAgreement bc = new ECDHBasicAgreement();
            bc.init(ours.privateParameters());
            byte[] expected = BigIntegers.asUnsignedByteArray(32, bc.calculateAgreement(theirs.publicKey().parameters()));
            byte[] actual;
            try {
                actual = NativeP256.agree(ours.nativePrivateKey(), theirs.publicKey().nativeKey());
            } catch (java.security.GeneralSecurityException e) {
                throw new AssertionError(e);
            }
            assertThat(HEX.formatHex(actual)).isEqualTo(HEX.formatHex(expected));

            byte[] dataKey = new byte[Ecies.KEY_BYTES];
            random.nextBytes(dataKey);
            byte[] p1 = digest();
            EciesEncryptedKey wrapped = Ecies.encrypt(ours.publicKey(), dataKey, p1, random);
            assertThat(Ecies.decrypt(ours, wrapped, p1)).isEqualTo(dataKey);
        }
    }

    @Test
    void der_roundTripsValuesWithLeadingZerosAndHighBits() {
        byte[][] cases = {
                HEX.parseHex("00000000000000000000000000000000000000000000000000000000000001ff"),
                HEX.parseHex("80000000000000000000000000000000000000000000000000000000000000aa"),
                HEX.parseHex("7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff01"),
                HEX.parseHex("0080000000000000000000000000000000000000000000000000000000000000"),
        };
        for (byte[] r : cases) {
            for (byte[] s : cases) {
                byte[] der = NativeP256.encodeDer(r, s);
                byte[][] back = NativeP256.decodeDer(der, 32);
                assertThat(back[0]).isEqualTo(r);
                assertThat(back[1]).isEqualTo(s);
                assertThat(new BigInteger(1, r)).isEqualTo(new BigInteger(der, 4, der[3]));
            }
        }
        assertThatThrownBy(() -> NativeP256.decodeDer(new byte[]{0x30, 0x02, 0x02, 0x00}, 32)).isInstanceOf(IllegalStateException.class);
    }

    private byte[] digest() {
        byte[] d = new byte[32];
        random.nextBytes(d);
        return d;
    }
}
