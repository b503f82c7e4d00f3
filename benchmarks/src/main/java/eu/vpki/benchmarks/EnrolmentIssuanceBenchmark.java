package eu.vpki.benchmarks;

import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.EnrolmentMessages;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The PKI-side crypto of one initial enrolment (nistP256), what the EA does per request: decrypt
 * (ECIES + CCM), parse, verify the proof of possession with the new key, look up the station's
 * registered canonical key (stored encoded, decoded per request as from a database) and verify the
 * outer signature with it, issue the EC (sign, re-decode, check against the EA: one verification),
 * sign and encrypt the response. The station requests are built in setup: a pool of
 * {@value #POOL} distinct requests, each from its own station, cycled through.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EnrolmentIssuanceBenchmark {
    static final int POOL = 1024;

    /** The EA's certificates and keys, the station registry, and the pre-built requests. */
    @State(Scope.Benchmark)
    public static class Requests {
        TestPki pki;
        final Map<ByteBuffer, byte[]> canonicalKeys = new HashMap<>();
        final byte[][] bodies = new byte[POOL][];
        private final AtomicInteger cursor = new AtomicInteger();

        @Setup
        public void setUp() {
            SecureRandom random = new SecureRandom();
            pki = new TestPki(EtsiCurve.NIST_P256);
            DataEncryption stationEncryption = new DataEncryption(random);
            List<PsidSsp> ecPermission = List.of(PsidSsp.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, (byte) 0x01, (byte) 0xC0));
            for (int i = 0; i < POOL; i++) {
                byte[] itsId = String.format("VIN-WVW%012d", i).getBytes(StandardCharsets.US_ASCII);
                EtsiKeyPair canonical = EtsiKeyPair.generate(EtsiCurve.NIST_P256, random);
                EtsiKeyPair newKey = EtsiKeyPair.generate(EtsiCurve.NIST_P256, random);
                canonicalKeys.put(ByteBuffer.wrap(itsId), canonical.publicKey().compressed());
                bodies[i] = EnrolmentMessages.initialRequest(
                        new EnrolmentMessages.EcRequest(itsId, newKey.publicKey(), null, SubjectAttributes.permissions(ecPermission)),
                        new SoftwareSigner(newKey, random), new SoftwareSigner(canonical, random), pki.ea.asEncryptionRecipient(),
                        TestPki.NOW,
                        stationEncryption).body();
            }
        }

        byte[] next() {
            return bodies[cursor.getAndIncrement() & (POOL - 1)];
        }
    }

    /** One EA worker thread: its own randomness, encryption and signer. */
    @State(Scope.Thread)
    public static class Ea {
        DataEncryption encryption;
        SoftwareSigner signer;

        @Setup
        public void setUp(Requests requests) {
            SecureRandom random = new SecureRandom();
            encryption = new DataEncryption(random);
            signer = new SoftwareSigner(requests.pki.eaKey, random);
        }
    }

    static byte[] enrol(Requests requests, Ea ea) {
        TestPki pki = requests.pki;
        DecryptedRequest decrypted = DecryptedRequest.decrypt(requests.next(), pki.eaIdentity(), ea.encryption);
        EnrolmentMessages.ReceivedEcRequest received = EnrolmentMessages.parseRequest(decrypted);
        byte[] registered = requests.canonicalKeys.get(ByteBuffer.wrap(received.request().itsId()));
        if (registered == null) {
            throw new PkiException(ErrorCode.CANONICAL_KEY_MISMATCH, "unknown station");
        }
        EtsiPublicKey canonical = EtsiPublicKey.fromEncodedPoint(EtsiCurve.NIST_P256, registered);
        received.outerSignature().requireSelfSignedBy(canonical, ErrorCode.CANONICAL_KEY_MISMATCH);
        EtsiCertificate ec = CertificateIssuer.issue(CertificateProfiles.enrolmentCredential(TestPki.EC_VALIDITY,
                received.request().verificationKey(), received.request().encryptionKey(), null), pki.ea, ea.signer);
        return EnrolmentMessages.response(decrypted, EtsiCodes.Enrolment.OK, ec, ea.signer, pki.ea, TestPki.NOW, ea.encryption);
    }

    @Benchmark
    public byte[] ecIssuance(Requests requests, Ea ea) {
        return enrol(requests, ea);
    }

    @Benchmark
    @Threads(2)
    public byte[] ecIssuanceTwoThreads(Requests requests, Ea ea) {
        return enrol(requests, ea);
    }
}
