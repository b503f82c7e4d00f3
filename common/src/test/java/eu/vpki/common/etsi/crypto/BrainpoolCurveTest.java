package eu.vpki.common.etsi.crypto;

import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.util.BigIntegers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Montgomery brainpool arithmetic against BouncyCastle's generic curve arithmetic, on random
 * scalars and on the scalars where a windowed method meets its special cases: tiny ones, ones just
 * below n, powers of two, and 2^bits - n, for which the comb's last window adds a point to itself.
 */
class BrainpoolCurveTest {
    private final SecureRandom random = new SecureRandom(new byte[]{20});

    static Stream<BrainpoolCurve> curves() {
        return Stream.of(BrainpoolCurve.P256R1, BrainpoolCurve.P384R1);
    }

    @ParameterizedTest
    @MethodSource("curves")
    void multiplyBase_matchesBouncyCastle_onRandomAndEdgeScalars(BrainpoolCurve c) {
        ECDomainParameters domain = c.curve.domain();
        for (BigInteger d : scalars(c, 60)) {
            BrainpoolCurve.PublicPoint ours = c.multiplyBase(bytes(c, d));
            ECPoint expected = domain.getG().multiply(d).normalize();
            assertThat(new BigInteger(1, ours.x)).as("x of %s·G", d).isEqualTo(expected.getAffineXCoord().toBigInteger());
            assertThat(new BigInteger(1, ours.y)).as("y of %s·G", d).isEqualTo(expected.getAffineYCoord().toBigInteger());
        }
    }

    @ParameterizedTest
    @MethodSource("curves")
    void sharedX_matchesBouncyCastle_withTheLadderAndWithAKeptComb(BrainpoolCurve c) {
        ECDomainParameters domain = c.curve.domain();
        BigInteger peerScalar = new BigInteger(c.order.modulus.bitLength() - 1, random).add(BigInteger.ONE);
        ECPoint peer = domain.getG().multiply(peerScalar).normalize();
        BrainpoolCurve.PublicPoint kept = c.decode(peer.getEncoded(true));
        for (BigInteger d : scalars(c, 40)) {
            BigInteger expected = peer.multiply(d).normalize().getAffineXCoord().toBigInteger();
            BrainpoolCurve.PublicPoint fresh = c.decode(peer.getEncoded(false));
            assertThat(new BigInteger(1, c.sharedX(bytes(c, d), fresh))).as("ladder, d = %s", d).isEqualTo(expected);
            assertThat(new BigInteger(1, c.sharedX(bytes(c, d), kept))).as("kept point, d = %s", d).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @MethodSource("curves")
    void signatures_verifyBothWays_andTamperingFails(BrainpoolCurve c) {
        ECDomainParameters domain = c.curve.domain();
        for (int i = 0; i < 60; i++) {
            byte[] d = c.randomScalar(random);
            BrainpoolCurve.PublicPoint q = c.multiplyBase(d);
            ECPublicKeyParameters bcKey = new ECPublicKeyParameters(domain.getCurve().decodePoint(encodedUncompressed(q)), domain);
            byte[] digest = new byte[c.order.byteLength];
            random.nextBytes(digest);

            byte[][] rs = c.sign(d, digest, random);
            ECDSASigner bc = new ECDSASigner();
            bc.init(false, bcKey);
            assertThat(bc.verifySignature(digest, new BigInteger(1, rs[0]), new BigInteger(1, rs[1]))).as("BouncyCastle verifies ours")
                    .isTrue();
            assertThat(c.verify(q, digest, rs[0], rs[1])).isTrue();

            bc.init(true, new ParametersWithRandom(new ECPrivateKeyParameters(new BigInteger(1, d), domain), random));
            BigInteger[] theirs = bc.generateSignature(digest);
            byte[] r = bytes(c, theirs[0]);
            byte[] s = bytes(c, theirs[1]);
            assertThat(c.verify(q, digest, r, s)).as("ours verifies BouncyCastle's").isTrue();

            byte[] other = digest.clone();
            other[i % other.length] ^= 1;
            assertThat(c.verify(q, other, r, s)).isFalse();
            assertThat(c.verify(q, digest, s, r)).isFalse();
            assertThat(c.verify(c.multiplyBase(c.randomScalar(random)), digest, r, s)).isFalse();
        }
    }

    @ParameterizedTest
    @MethodSource("curves")
    void verify_rejectsOutOfRangeValues(BrainpoolCurve c) {
        byte[] d = c.randomScalar(random);
        BrainpoolCurve.PublicPoint q = c.multiplyBase(d);
        byte[] digest = new byte[c.order.byteLength];
        byte[][] rs = c.sign(d, digest, random);
        byte[] zero = new byte[c.order.byteLength];
        byte[] n = bytes(c, c.order.modulus);
        assertThat(c.verify(q, digest, rs[0], rs[1])).isTrue();
        assertThat(c.verify(q, digest, zero, rs[1])).isFalse();
        assertThat(c.verify(q, digest, rs[0], zero)).isFalse();
        assertThat(c.verify(q, digest, n, rs[1])).isFalse();
        assertThat(c.verify(q, digest, rs[0], n)).isFalse();
        assertThat(c.verify(q, new byte[c.order.byteLength + 1], rs[0], rs[1])).isFalse();
        // r + n is the same residue: a verifier that reduced r first would accept it where it fits
        BigInteger rPlusN = new BigInteger(1, rs[0]).add(c.order.modulus);
        if (rPlusN.bitLength() <= 8 * c.order.byteLength) {
            assertThat(c.verify(q, digest, bytes(c, rPlusN), rs[1])).isFalse();
        }
    }

    @ParameterizedTest
    @MethodSource("curves")
    void decode_acceptsBouncyCastleEncodings_andRejectsPointsOffTheCurve(BrainpoolCurve c) {
        ECDomainParameters domain = c.curve.domain();
        for (int i = 0; i < 50; i++) {
            ECPoint p = domain.getG().multiply(new BigInteger(c.order.modulus.bitLength() - 1, random).add(BigInteger.ONE)).normalize();
            BrainpoolCurve.PublicPoint compressed = c.decode(p.getEncoded(true));
            BrainpoolCurve.PublicPoint uncompressed = c.decode(p.getEncoded(false));
            assertThat(compressed.x).isEqualTo(uncompressed.x)
                    .isEqualTo(BigIntegers.asUnsignedByteArray(c.field.byteLength, p.getAffineXCoord().toBigInteger()));
            assertThat(compressed.y).isEqualTo(uncompressed.y)
                    .isEqualTo(BigIntegers.asUnsignedByteArray(c.field.byteLength, p.getAffineYCoord().toBigInteger()));
            assertThat(compressed.yOdd()).isEqualTo(p.getAffineYCoord().testBitZero());

            byte[] offCurve = p.getEncoded(false);
            offCurve[offCurve.length - 1] ^= 1;
            assertThatThrownBy(() -> c.decode(offCurve)).isInstanceOf(IllegalArgumentException.class);
        }
        byte[] xTooBig = new byte[c.field.byteLength + 1];
        xTooBig[0] = 0x02;
        System.arraycopy(bytes(c, c.field.modulus), 0, xTooBig, 1, c.field.byteLength);
        assertThatThrownBy(() -> c.decode(xTooBig)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> c.decode(new byte[]{0x00})).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @MethodSource("curves")
    void naf_representsTheScalar(BrainpoolCurve c) {
        for (BigInteger k : scalars(c, 100)) {
            for (int width : new int[]{5, 8}) {
                int[] naf = BrainpoolCurve.naf(bytes(c, k), width);
                BigInteger sum = BigInteger.ZERO;
                int lastNonZero = -width;
                for (int i = naf.length - 1; i >= 0; i--) {
                    sum = sum.shiftLeft(1).add(BigInteger.valueOf(naf[i]));
                }
                for (int i = 0; i < naf.length; i++) {
                    if (naf[i] != 0) {
                        assertThat(naf[i] & 1).isEqualTo(1);
                        assertThat(Math.abs(naf[i])).isLessThan(1 << (width - 1));
                        assertThat(i - lastNonZero).isGreaterThanOrEqualTo(width);
                        lastNonZero = i;
                    }
                }
                assertThat(sum).isEqualTo(k);
            }
        }
    }

    /** Random scalars in [1, n - 1] plus the edges of windowed scalar multiplication. */
    private List<BigInteger> scalars(BrainpoolCurve c, int randomCount) {
        BigInteger n = c.order.modulus;
        int bits = 8 * c.order.byteLength;
        List<BigInteger> out = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            out.add(BigInteger.valueOf(i));
            out.add(n.subtract(BigInteger.valueOf(i)));
        }
        for (int i = 0; i < n.bitLength() - 1; i += 7) {
            out.add(BigInteger.ONE.shiftLeft(i));
            out.add(BigInteger.ONE.shiftLeft(i + 1).subtract(BigInteger.ONE));
        }
        out.add(BigInteger.ONE.shiftLeft(bits).subtract(n)); // the comb's top window doubles
        out.add(BigInteger.ONE.shiftLeft(bits - 1).subtract(n).mod(n));
        out.add(n.shiftRight(1));
        out.add(n.shiftRight(1).add(BigInteger.ONE));
        for (int i = 0; i < randomCount; i++) {
            out.add(new BigInteger(n.bitLength() + 16, random).mod(n.subtract(BigInteger.ONE)).add(BigInteger.ONE));
        }
        return out;
    }

    private static byte[] bytes(BrainpoolCurve c, BigInteger v) {
        return BigIntegers.asUnsignedByteArray(c.order.byteLength, v);
    }

    private static byte[] encodedUncompressed(BrainpoolCurve.PublicPoint q) {
        byte[] out = new byte[1 + q.x.length + q.y.length];
        out[0] = 0x04;
        System.arraycopy(q.x, 0, out, 1, q.x.length);
        System.arraycopy(q.y, 0, out, 1 + q.x.length, q.y.length);
        return out;
    }
}
