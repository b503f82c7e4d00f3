package eu.vpki.common.etsi.ts102941;

import com.code_intelligence.jazzer.junit.FuzzTest;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DataSigning;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.SignerKind;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import eu.vpki.common.testing.FuzzContract;
import eu.vpki.common.testing.FuzzCorpus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;

/**
 * Fuzz targets for every ETSI decoder that reads bytes received from the network, with the property
 * of {@link FuzzContract}: nothing but a {@code PkiException} escapes, no input allocates more than
 * the bound. Run in regression mode by {@code mvn verify} on the corpus under
 * {@code EtsiDecodingFuzzTestInputs/<target>/}; the long run is described in docs/security.md
 * ("Fuzzing"). Messages are made with {@link TestPki#fixed()}, so stored seeds stay decryptable and
 * their signatures verifiable.
 */
@Tag("fuzz") // a JVM of its own (the root pom's execution fuzz-targets)
class EtsiDecodingFuzzTest {
    private static final TestPki PKI = TestPki.fixed();
    private static final DataEncryption ENCRYPTION = new DataEncryption(new SecureRandom());
    private static final DecryptionIdentity EA = new DecryptionIdentity(PKI.eaEncKey, PKI.ea.hashedId8(), PKI.ea.sha256());
    private static final byte[] AES_KEY = new byte[16];
    private static final byte[] REQUEST_HASH = new byte[16];
    private static final Coer.Type[] TYPES = Coer.Type.values();

    /** Every COER type we decode: the first byte picks the type, the rest is decoded as that type. */
    @FuzzTest(maxDuration = "")
    void anyType(byte[] input) {
        if (input.length == 0) {
            return;
        }
        Coer.Type type = TYPES[(input[0] & 0xff) % TYPES.length];
        byte[] encoding = Arrays.copyOfRange(input, 1, input.length);
        FuzzContract.check(() -> Coer.decode(encoding, type));
    }

    /** EtsiTs103097Certificate, with every field the PKI reads from a received certificate. */
    @FuzzTest(maxDuration = "")
    void certificate(byte[] input) {
        FuzzContract.check(() -> {
            EtsiCertificate c = EtsiCertificate.decode(input);
            c.hashedId8();
            c.issuerId();
            c.name();
            c.validity();
            c.region();
            c.assuranceLevel();
            c.appPermissions();
            c.certIssuePermissions();
            c.verificationKey();
            c.encryptionKey();
            c.signature();
            c.canonical();
            c.validAt(NOW);
            c.signatureVerifies(PKI.root);
        });
    }

    /** EtsiTs103097Data-Signed, with its header fields and a signature check. */
    @FuzzTest(maxDuration = "")
    void signedData(byte[] input) {
        FuzzContract.check(() -> {
            SignedMessage m = SignedMessage.parse(input);
            m.payload();
            m.externalDataHash();
            m.psid();
            m.generationTime();
            m.signerDigest();
            m.signerCertificate();
            m.signature();
            m.verifiesWith(PKI.aa);
        });
    }

    /** EtsiTs103097Data-Encrypted addressed to the EA: what every EA and AA request body is. */
    @FuzzTest(maxDuration = "")
    void encryptedData(byte[] input) {
        FuzzContract.check(() -> DecryptedRequest.decrypt(input, EA, ENCRYPTION));
    }

    /** The decrypted plaintext of an enrolment request (InnerEcRequestSignedForPop inside the outer signature). */
    @FuzzTest(maxDuration = "")
    void enrolmentRequest(byte[] plaintext) {
        FuzzContract.check(() -> EnrolmentMessages.parseRequest(new DecryptedRequest(plaintext, AES_KEY, REQUEST_HASH)));
    }

    /** The decrypted plaintext of an authorization request (InnerAtRequest, with the EC signature). */
    @FuzzTest(maxDuration = "")
    void authorizationRequest(byte[] plaintext) {
        FuzzContract.check(() -> AuthorizationMessages.parseRequest(new DecryptedRequest(plaintext, AES_KEY, REQUEST_HASH)));
    }

    /** The decrypted plaintext of an authorization validation request (the AA's signature, the SharedAtRequest). */
    @FuzzTest(maxDuration = "")
    void validationRequest(byte[] plaintext) {
        FuzzContract.check(() -> AuthorizationValidationMessages.parseRequest(new DecryptedRequest(plaintext, AES_KEY, REQUEST_HASH),
                id -> id.equals(PKI.aa.hashedId8()) ? Optional.of(PKI.aa) : Optional.empty(), EA, ENCRYPTION));
    }

    /** A CaCertificateRequest as the Root CA's admin API receives it. */
    @FuzzTest(maxDuration = "")
    void caCertificateRequest(byte[] input) {
        FuzzContract.check(() -> CaCertificateRequestMessages.parseRequest(input));
    }

    /** A signed CTL as the DC, EA and AA receive it. */
    @FuzzTest(maxDuration = "")
    void ctl(byte[] input) {
        FuzzContract.check(() -> TrustLists.readCtl(input, PKI.root));
    }

    /** The ToBeSignedRcaCtl inside a CTL: signed here by the root, so that the fuzzer reaches the content decoder. */
    @FuzzTest(maxDuration = "")
    void ctlContent(byte[] toBeSigned) {
        byte[] signed = DataSigning.sign(Ts102941Data.wrapRcaCtl(toBeSigned), Psids.CTL, NOW, SignerKind.DIGEST, PKI.rootSigner(),
                PKI.root);
        FuzzContract.check(() -> TrustLists.readCtl(signed, PKI.root));
    }

    /** A signed CRL as the DC, EA and AA receive it. */
    @FuzzTest(maxDuration = "")
    void crl(byte[] input) {
        FuzzContract.check(() -> TrustLists.readCrl(input, PKI.root));
    }

    /** The ToBeSignedCrl inside a CRL, signed here by the root. */
    @FuzzTest(maxDuration = "")
    void crlContent(byte[] toBeSigned) {
        byte[] signed = DataSigning.sign(Ts102941Data.wrapCrl(toBeSigned), Psids.CRL, NOW, SignerKind.DIGEST, PKI.rootSigner(), PKI.root);
        FuzzContract.check(() -> TrustLists.readCrl(signed, PKI.root));
    }

    /** An authorization validation response as the AA receives it from the EA (encrypted with the request's AES key). */
    @FuzzTest(maxDuration = "")
    void validationResponse(byte[] input) {
        FuzzContract.check(() -> AuthorizationValidationMessages.readResponse(input, FixedRequests.VALIDATION_REQUEST, PKI.ea, ENCRYPTION));
    }

    /**
     * Writes real messages as seeds into the corpus (run once, after a change of the formats or of the
     * fixed PKI): {@code mvn -pl common test -Dtest=EtsiDecodingFuzzTest#writeSeeds -Dvpki.fuzz.write-seeds=true}.
     */
    @Test
    @EnabledIfSystemProperty(named = "vpki.fuzz.write-seeds", matches = "true")
    void writeSeeds() throws IOException {
        FuzzCorpus corpus = FuzzCorpus.of(EtsiDecodingFuzzTest.class);
        List<Path> etsiCertificates;
        try (Stream<Path> files = Files.list(Path.of("src/test/resources/test-vectors/etsi-its-certs"))) {
            etsiCertificates = files.filter(f -> f.toString().endsWith(".oer")).sorted().toList();
        }
        for (Path f : etsiCertificates) {
            byte[] cert = Files.readAllBytes(f);
            corpus.write("certificate", "etsi-" + f.getFileName(), cert);
        }
        for (EtsiCertificate c : List.of(PKI.root, PKI.ea, PKI.aa, TestPki.fixedEc())) {
            corpus.write("certificate", "fixed-" + c.hashedId8(), c.encoded());
            corpus.write("anyType", "certificate-" + c.hashedId8(), typed(Coer.Type.CERTIFICATE, c.encoded()));
        }

        OutgoingRequest enrolment = FixedRequests.enrolment();
        DecryptedRequest enrolmentPlain = DecryptedRequest.decrypt(enrolment.body(), EA, ENCRYPTION);
        corpus.write("encryptedData", "enrolment", enrolment.body());
        corpus.write("enrolmentRequest", "initial", enrolmentPlain.plaintext());
        corpus.write("signedData", "enrolment-outer", enrolmentPlain.plaintext());
        corpus.write("anyType", "data-enrolment", typed(Coer.Type.DATA, enrolmentPlain.plaintext()));
        byte[] inner = EnrolmentMessages.parseRequest(enrolmentPlain).outerSignature().requirePayload();
        corpus.write("anyType", "ts102941data-ec-request", typed(Coer.Type.ETSI_TS102941_DATA, inner));

        OutgoingRequest authorization = FixedRequests.authorization(AuthorizationMessages.Protection.FULL);
        DecryptedRequest aaPlain = DecryptedRequest.decrypt(authorization.body(),
                new DecryptionIdentity(PKI.aaEncKey, PKI.aa.hashedId8(), PKI.aa.sha256()), ENCRYPTION);
        corpus.write("encryptedData", "authorization", authorization.body());
        corpus.write("authorizationRequest", "full-protection", aaPlain.plaintext());
        corpus.write("signedData", "authorization-pop", aaPlain.plaintext());
        corpus.write("anyType", "data-authorization", typed(Coer.Type.DATA, aaPlain.plaintext()));

        OutgoingRequest validation = FixedRequests.validation();
        corpus.write("encryptedData", "validation", validation.body());
        corpus.write("validationRequest", "from-aa", DecryptedRequest.decrypt(validation.body(), EA, ENCRYPTION).plaintext());

        byte[] response = AuthorizationValidationMessages.response(
                new DecryptedRequest(new byte[1], FixedRequests.VALIDATION_REQUEST.aesKey(),
                        FixedRequests.VALIDATION_REQUEST.requestHash()),
                0, SubjectAttributes.permissions(List.of(PsidSsp.of(Psids.CAM))), PKI.eaSigner(),
                PKI.ea, NOW, ENCRYPTION);
        corpus.write("validationResponse", "ok", response);

        byte[] caRequest = CaCertificateRequestMessages.request(CaCertificateRequestMessages.CaRequest.fromTemplate(
                CertificateProfiles.enrolmentAuthority("ea.fuzz.test", Validity.of(NOW, Validity.Unit.YEARS, 1),
                        TestPki.fixedKey("ca-request").publicKey(), TestPki.fixedKey("ca-request-encryption").publicKey(), null)),
                new SoftwareSigner(TestPki.fixedKey("ca-request"), TestPki.RANDOM), NOW);
        corpus.write("caCertificateRequest", "ea", caRequest);
        corpus.write("anyType", "data-ca-request", typed(Coer.Type.DATA, caRequest));

        RcaCtl rcaCtl = new RcaCtl(true, 7, NOW.plusSeconds(7 * 86_400), List.of(
                new CtlEntry.Ea(PKI.ea, "http://127.0.0.1:8081/ea", "http://127.0.0.1:8081/ea"),
                new CtlEntry.Aa(PKI.aa, "http://127.0.0.1:8085/aa"),
                new CtlEntry.Dc("http://127.0.0.1:8090/", List.of(PKI.root.hashedId8()))), List.of());
        byte[] ctl = TrustLists.signCtl(rcaCtl, NOW, PKI.rootSigner(), PKI.root);
        corpus.write("ctl", "full", ctl);
        byte[] ctlTbs = Ts102941Data.unwrapRcaCtl(SignedMessage.parse(ctl).requirePayload());
        corpus.write("ctlContent", "full", ctlTbs);
        corpus.write("anyType", "tbs-ctl", typed(Coer.Type.TO_BE_SIGNED_RCA_CTL, ctlTbs));
        byte[] delta = TrustLists.signCtl(new RcaCtl(false, 8, NOW.plusSeconds(7 * 86_400), List.of(),
                List.of(new CtlDelete.Certificate(PKI.aa.hashedId8()), new CtlDelete.Dc("http://127.0.0.1:8090/"))), NOW, PKI.rootSigner(),
                PKI.root);
        corpus.write("ctl", "delta", delta);
        corpus.write("ctlContent", "delta", Ts102941Data.unwrapRcaCtl(SignedMessage.parse(delta).requirePayload()));

        byte[] crl = TrustLists.signCrl(new Crl(NOW, NOW.plusSeconds(7 * 86_400), List.of(PKI.aa.hashedId8(),
                HashedId8.fromHex("0102030405060708"))), NOW, PKI.rootSigner(), PKI.root);
        corpus.write("crl", "two-revoked", crl);
        byte[] crlTbs = Ts102941Data.unwrapCrl(SignedMessage.parse(crl).requirePayload());
        corpus.write("crlContent", "two-revoked", crlTbs);
        corpus.write("anyType", "tbs-crl", typed(Coer.Type.TO_BE_SIGNED_CRL, crlTbs));
    }

    private static byte[] typed(Coer.Type type, byte[] encoding) {
        byte[] out = new byte[encoding.length + 1];
        out[0] = (byte) type.ordinal();
        System.arraycopy(encoding, 0, out, 1, encoding.length);
        return out;
    }
}
