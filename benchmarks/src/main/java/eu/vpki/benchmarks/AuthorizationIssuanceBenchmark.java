package eu.vpki.benchmarks;

import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.AuthorizationValidationMessages;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.fleet.RecordDecoding;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The PKI-side crypto of one authorization ticket, AA and EA together (privacy variant: proof of
 * possession, EC signature encrypted for the EA), what the two servers do per request:
 * <ol>
 *   <li>AA: decrypt the request (ECIES + CCM), parse it, verify the proof of possession and the keyTag;</li>
 *   <li>AA: build the validation request (sign, ECIES-encrypt to the EA);</li>
 *   <li>EA: decrypt it, verify the AA's signature (AA certificate from the CTL, kept decoded),
 *       decrypt the EC signature (ECIES + CCM), look up the EC (stored as hex COER, decoded through
 *       the EA's bounded {@link RecordDecoding} cache, as the EA's {@code FleetState} reads it) and
 *       verify the EC signature; sign and encrypt the response;</li>
 *   <li>AA: decrypt and verify the EA's response, issue the AT (sign, re-decode, check: one
 *       verification), sign and encrypt the response.</li>
 * </ol>
 * The station requests are built in setup: {@value #POOL} distinct requests, each from its own
 * station with its own EC, cycled through.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class AuthorizationIssuanceBenchmark {
    static final int POOL = 1024;

    /** AA and EA certificates and keys, the EA's EC store, and the pre-built requests. */
    @State(Scope.Benchmark)
    public static class Requests {
        @Param({"NIST_P256", "BRAINPOOL_P256R1"})
        public EtsiCurve curve;

        TestPki pki;
        final Map<HashedId8, String> enrolmentCredentials = new HashMap<>();
        final RecordDecoding decoding = new RecordDecoding(RecordDecoding.DEFAULT_ENTRIES);
        Function<HashedId8, Optional<EtsiCertificate>> ctlAas;
        final byte[][] bodies = new byte[POOL][];
        private final AtomicInteger cursor = new AtomicInteger();

        @Setup
        public void setUp() {
            SecureRandom random = new SecureRandom();
            pki = new TestPki(curve);
            ctlAas = id -> id.equals(pki.aa.hashedId8()) ? Optional.of(pki.aa) : Optional.empty();
            DataEncryption stationEncryption = new DataEncryption(random);
            for (int i = 0; i < POOL; i++) {
                EtsiKeyPair ecKey = EtsiKeyPair.generate(curve, random);
                EtsiCertificate ec = pki.issueEc(ecKey);
                enrolmentCredentials.put(ec.hashedId8(), HexFormat.of().formatHex(ec.encoded()));
                EtsiKeyPair atKey = EtsiKeyPair.generate(curve, random);
                OutgoingRequest request = AuthorizationMessages.request(
                        new AuthorizationMessages.AtRequest(atKey.publicKey(), null, SubjectAttributes.permissions(TestPki.CAM_DENM)),
                        new SoftwareSigner(atKey, random), ec, new SoftwareSigner(ecKey, random), pki.ea, pki.aa.asEncryptionRecipient(),
                        AuthorizationMessages.Protection.FULL, TestPki.NOW, random, stationEncryption);
                bodies[i] = request.body();
            }
        }

        byte[] next() {
            return bodies[cursor.getAndIncrement() & (POOL - 1)];
        }
    }

    /** One worker thread of the AA and one of the EA: own randomness, encryption and signers. */
    @State(Scope.Thread)
    public static class Servers {
        DataEncryption encryption;
        SoftwareSigner aaSigner;
        SoftwareSigner eaSigner;

        @Setup
        public void setUp(Requests requests) {
            SecureRandom random = new SecureRandom();
            encryption = new DataEncryption(random);
            aaSigner = new SoftwareSigner(requests.pki.aaKey, random);
            eaSigner = new SoftwareSigner(requests.pki.eaKey, random);
        }
    }

    static byte[] authorize(Requests requests, Servers s) {
        TestPki pki = requests.pki;
        // AA
        DecryptedRequest atRequest = DecryptedRequest.decrypt(requests.next(), pki.aaIdentity(), s.encryption);
        AuthorizationMessages.ReceivedAtRequest received = AuthorizationMessages.parseRequest(atRequest);
        OutgoingRequest toEa = AuthorizationValidationMessages.request(received, s.aaSigner, pki.aa, pki.ea.asEncryptionRecipient(),
                TestPki.NOW, s.encryption);

        // EA
        DecryptedRequest validationRequest = DecryptedRequest.decrypt(toEa.body(), pki.eaIdentity(), s.encryption);
        AuthorizationValidationMessages.ReceivedValidationRequest validation = AuthorizationValidationMessages
                .parseRequest(validationRequest, requests.ctlAas, pki.eaIdentity(), s.encryption);
        String ecStored = requests.enrolmentCredentials.get(validation.ecSignature().signerDigest().orElseThrow());
        if (ecStored == null) {
            throw new PkiException(ErrorCode.UNKNOWN_SIGNER, "unknown EC");
        }
        validation.ecSignature().requireSignedBy(requests.decoding.certificate(ecStored));
        byte[] validationResponse = AuthorizationValidationMessages.response(validationRequest, EtsiCodes.Validation.OK,
                validation.requested(), s.eaSigner, pki.ea, TestPki.NOW, s.encryption);

        // AA
        AuthorizationValidationMessages.ValidationResult result = AuthorizationValidationMessages.readResponse(validationResponse, toEa,
                pki.ea, s.encryption);
        EtsiCertificate at = CertificateIssuer.issue(CertificateProfiles.authorizationTicket(TestPki.AT_VALIDITY,
                received.request().verificationKey(), received.request().encryptionKey(),
                result.confirmed().orElseThrow().appPermissions(), null), pki.aa, s.aaSigner);
        return AuthorizationMessages.response(atRequest, EtsiCodes.Authorization.OK, at, s.aaSigner, pki.aa, TestPki.NOW, s.encryption);
    }

    @Benchmark
    public byte[] atIssuance(Requests requests, Servers servers) {
        return authorize(requests, servers);
    }

    @Benchmark
    @Threads(2)
    public byte[] atIssuanceTwoThreads(Requests requests, Servers servers) {
        return authorize(requests, servers);
    }
}
