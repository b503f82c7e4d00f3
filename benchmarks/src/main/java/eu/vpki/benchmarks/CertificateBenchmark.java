package eu.vpki.benchmarks;

import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.oer.OEREncoder;
import org.bouncycastle.oer.OERInputStream;
import org.bouncycastle.oer.Element;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097Certificate;
import org.bouncycastle.oer.its.ieee1609dot2.ToBeSignedCertificate;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.EccP256CurvePoint;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.EcdsaP256Signature;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Signature;
import org.bouncycastle.oer.its.template.etsi103097.EtsiTs103097Module;
import org.bouncycastle.oer.its.template.ieee1609dot2.IEEE1609dot2;
import org.bouncycastle.util.BigIntegers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.io.IOException;
import java.math.BigInteger;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * An authorization ticket (nistP256, issued by the AA, CAM + DENM permissions, about 150 bytes of
 * COER): decoding and encoding against BouncyCastle's bare OER parser and encoder with cached
 * definitions, and issuing one against the bare "encode to-be-signed, sign, encode certificate".
 * {@link EtsiCertificate#decode} also checks canonical encoding (a second encode), re-encodes the
 * to-be-signed part, hashes the certificate and decompresses its key; {@link CertificateIssuer#issue}
 * also re-decodes the certificate and checks it against its issuer (one more signature verification).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CertificateBenchmark {
    private static final Element CERTIFICATE = EtsiTs103097Module.EtsiTs103097Certificate.build();
    private static final Element TO_BE_SIGNED_CERTIFICATE = IEEE1609dot2.ToBeSignedCertificate.build();

    private SecureRandom random;
    private TestPki pki;
    private SoftwareSigner aaSigner;
    private EtsiKeyPair atKey;
    private byte[] atEncoded;
    private EtsiCertificate at;
    private ToBeSignedCertificate atToBeSigned;
    private byte[] aaCertificateHash;
    private ECDSASigner bcSigner;
    private MessageDigest sha256;

    @Setup
    public void setUp() throws NoSuchAlgorithmException {
        random = new SecureRandom();
        pki = new TestPki(EtsiCurve.NIST_P256);
        aaSigner = new SoftwareSigner(pki.aaKey, random);
        atKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, random);
        at = pki.issueAt(atKey);
        atEncoded = at.encoded();
        atToBeSigned = at.oer().getToBeSigned();
        aaCertificateHash = MessageDigest.getInstance("SHA-256").digest(pki.aa.encoded());
        bcSigner = new ECDSASigner();
        bcSigner.init(true, new ParametersWithRandom(new ECPrivateKeyParameters(new BigInteger(1, pki.aaKey.privateScalar()),
                RawBc.domain(EtsiCurve.NIST_P256)), random));
        sha256 = MessageDigest.getInstance("SHA-256");
    }

    @Benchmark
    public ASN1Encodable bcDecode() throws IOException {
        return OERInputStream.parse(atEncoded, CERTIFICATE);
    }

    @Benchmark
    public EtsiCertificate oursDecode() {
        return EtsiCertificate.decode(atEncoded);
    }

    @Benchmark
    public byte[] bcEncode() {
        return OEREncoder.toByteArray(at.oer(), CERTIFICATE);
    }

    /** Raw: COER of a prebuilt to-be-signed AT, the IEEE 1609.2 digest, ECDSA, COER of the certificate. */
    @Benchmark
    public byte[] bcSignAndEncode() throws CloneNotSupportedException {
        byte[] tbs = OEREncoder.toByteArray(atToBeSigned, TO_BE_SIGNED_CERTIFICATE);
        MessageDigest sha = (MessageDigest) sha256.clone();
        byte[] tbsHash = sha.digest(tbs);
        sha.update(tbsHash);
        sha.update(aaCertificateHash);
        BigInteger[] rs = bcSigner.generateSignature(sha.digest());
        Signature sig = Signature.ecdsaNistP256Signature(new EcdsaP256Signature(
                EccP256CurvePoint.xOnly(BigIntegers.asUnsignedByteArray(32, rs[0])),
                new DEROctetString(BigIntegers.asUnsignedByteArray(32, rs[1]))));
        EtsiTs103097Certificate cert = new EtsiTs103097Certificate(at.oer().getVersion(), at.oer().getIssuer(), atToBeSigned, sig);
        return OEREncoder.toByteArray(cert, CERTIFICATE);
    }

    /** Ours: build the AT from its profile, sign, encode, re-decode and check against the AA. */
    @Benchmark
    public EtsiCertificate oursIssueAt() {
        return CertificateIssuer.issue(
                CertificateProfiles.authorizationTicket(TestPki.AT_VALIDITY, atKey.publicKey(), null, TestPki.CAM_DENM, null),
                pki.aa, aaSigner);
    }
}
