package eu.vpki.common.etsi.oer;

import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.FixedRequests;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.TestPki;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.ASN1TaggedObject;
import org.bouncycastle.oer.Element;
import org.bouncycastle.oer.OEREncoder;
import org.bouncycastle.oer.OERInputStream;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097Certificate;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Coer}'s definitions without debug labels encode and decode exactly as BouncyCastle's own
 * definitions: every input is decoded as every {@link Coer.Type} with both, and wherever one decodes
 * the other must decode the same value, and both must encode that value to the same bytes. Inputs:
 * the ETSI test-suite certificates, every fuzzing seed (messages of every type, made by this
 * project's code), a fresh enrolment request and authorization requests decrypted with the
 * authorities' keys, and, recursively, every octet string inside what decoded (signed payloads,
 * encrypted ciphertexts, nested certificates) and the ToBeSignedCertificate of every certificate.
 */
class UnlabelledElementTest {
    private static final int MIN_NESTED_BYTES = 8;

    @Test
    void everyDefinition_isUnlabelledAllTheWayDown() {
        for (Coer.Type type : Coer.Type.values()) {
            Element root = Coer.definition(type);
            Deque<Element> open = new ArrayDeque<>(List.of(root));
            int elements = 0;
            while (!open.isEmpty()) {
                Element e = open.pop();
                elements++;
                assertThat(e).as("%s: element %s", type, e).isInstanceOf(UnlabelledElement.class);
                assertThat(e.rangeExpression()).isEmpty();
                assertThat(e.appendLabel("x")).isEmpty();
                for (Element child : e.getChildren()) {
                    assertThat(child.getParent()).as("%s: parent of %s", type, child).isSameAs(e);
                    open.push(child);
                }
            }
            assertThat(elements).as("%s: elements", type).isGreaterThan(type == Coer.Type.SYMMETRIC_ENCRYPTION_KEY ? 1 : 2);
        }
    }

    @Test
    void everyInput_decodesAndEncodesAsWithBouncyCastlesDefinitions() throws Exception {
        Map<Coer.Type, Element> bouncyCastle = new EnumMap<>(Coer.Type.class);
        for (Coer.Type type : Coer.Type.values()) {
            bouncyCastle.put(type, type.builder.build());
        }
        Deque<byte[]> inputs = new ArrayDeque<>(corpus());
        Set<ByteBuffer> seen = new HashSet<>();
        Map<Coer.Type, Integer> decoded = new EnumMap<>(Coer.Type.class);
        Map<Coer.Type, Integer> encoded = new EnumMap<>(Coer.Type.class);
        int pairs = 0;
        List<String> differences = new ArrayList<>();
        while (!inputs.isEmpty()) {
            byte[] input = inputs.pop();
            if (!seen.add(ByteBuffer.wrap(input))) {
                continue;
            }
            for (Coer.Type type : Coer.Type.values()) {
                pairs++;
                ASN1Encodable theirs = parse(input, bouncyCastle.get(type));
                ASN1Encodable ours = parse(input, Coer.definition(type));
                if (theirs == null || ours == null) {
                    if (theirs != ours) {
                        differences.add(type + " of " + input.length + " bytes: decoded by " + (theirs == null ? "ours" : "BouncyCastle's")
                                + " only");
                    }
                    continue;
                }
                decoded.merge(type, 1, Integer::sum);
                if (!theirs.equals(ours)) {
                    differences.add(type + " of " + input.length + " bytes: different values");
                    continue;
                }
                // a decoded value may not encode (BouncyCastle's decoder accepts what its encoder refuses,
                // e.g. an enumerated value outside the definition): then it must fail with both
                byte[] theirBytes = encode(theirs, bouncyCastle.get(type));
                byte[] ourBytes = encode(ours, Coer.definition(type));
                if (!Arrays.equals(theirBytes, ourBytes)) {
                    differences.add(type + " of " + input.length + " bytes: different encodings");
                } else if (ourBytes != null) {
                    encoded.merge(type, 1, Integer::sum);
                }
                nestedOctetStrings(ours.toASN1Primitive(), inputs);
                if (type == Coer.Type.CERTIFICATE && ourBytes != null) {
                    // what the issuer hashes and signs: the ToBeSignedCertificate on its own
                    inputs.push(OEREncoder.toByteArray(EtsiTs103097Certificate.getInstance(ours).getToBeSigned(),
                            bouncyCastle.get(Coer.Type.TO_BE_SIGNED_CERTIFICATE)));
                }
            }
        }
        assertThat(differences).as("decodings or encodings that differ from BouncyCastle's definitions").isEmpty();
        System.out.printf("UnlabelledElementTest: %d inputs, %d (input, type) pairs, decoded per type: %s, re-encoded: %s%n",
                seen.size(), pairs, decoded, encoded);
        for (Coer.Type type : List.of(Coer.Type.CERTIFICATE, Coer.Type.DATA, Coer.Type.ETSI_TS102941_DATA,
                Coer.Type.TO_BE_SIGNED_CERTIFICATE,
                Coer.Type.TO_BE_SIGNED_DATA, Coer.Type.TO_BE_SIGNED_CRL, Coer.Type.TO_BE_SIGNED_RCA_CTL)) {
            assertThat(encoded.getOrDefault(type, 0)).as("inputs that decode and encode as %s", type).isGreaterThan(0);
        }
        assertThat(encoded.getOrDefault(Coer.Type.CERTIFICATE, 0)).as("certificates").isGreaterThan(50);
    }

    private static ASN1Encodable parse(byte[] input, Element definition) {
        try {
            return OERInputStream.parse(input, definition);
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            return null;
        }
    }

    private static byte[] encode(ASN1Encodable value, Element definition) {
        try {
            return OEREncoder.toByteArray(value, definition);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static void nestedOctetStrings(ASN1Primitive value, Deque<byte[]> into) {
        if (value instanceof ASN1OctetString octets) {
            if (octets.getOctets().length >= MIN_NESTED_BYTES) {
                into.push(octets.getOctets());
            }
        } else if (value instanceof ASN1Sequence sequence) {
            for (ASN1Encodable e : sequence) {
                nestedOctetStrings(e.toASN1Primitive(), into);
            }
        } else if (value instanceof ASN1TaggedObject tagged) {
            nestedOctetStrings(tagged.getBaseObject().toASN1Primitive(), into);
        }
    }

    /** The stored inputs and fresh requests, decrypted with the authorities' keys. */
    private static List<byte[]> corpus() throws IOException, URISyntaxException {
        List<byte[]> out = new ArrayList<>();
        for (String directory : List.of("/test-vectors/etsi-its-certs", "/eu/vpki/common/etsi/ts102941/EtsiDecodingFuzzTestInputs")) {
            Path root = Path.of(Objects.requireNonNull(UnlabelledElementTest.class.getResource(directory), directory).toURI());
            try (Stream<Path> files = Files.walk(root)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    String name = file.getFileName().toString();
                    if (name.endsWith(".oer") || file.toString().contains("FuzzTestInputs")) {
                        try (InputStream in = Files.newInputStream(file)) {
                            byte[] bytes = in.readAllBytes();
                            out.add(bytes);
                            if (bytes.length > 1) {
                                out.add(Arrays.copyOfRange(bytes, 1, bytes.length)); // anyType seeds: the first byte picks the type
                            }
                        }
                    }
                }
            }
        }
        TestPki pki = TestPki.fixed();
        DataEncryption encryption = new DataEncryption(new SecureRandom());
        byte[] enrolment = FixedRequests.enrolment().body();
        out.add(enrolment);
        out.add(encryption.decrypt(new DecryptionIdentity(pki.eaEncKey, pki.ea.hashedId8(), pki.ea.sha256()), enrolment).plaintext());
        for (boolean pop : new boolean[]{true, false}) {
            for (boolean encrypted : new boolean[]{true, false}) {
                byte[] authorization = FixedRequests.authorization(new AuthorizationMessages.Protection(pop, encrypted)).body();
                out.add(authorization);
                out.add(encryption.decrypt(new DecryptionIdentity(pki.aaEncKey, pki.aa.hashedId8(), pki.aa.sha256()), authorization)
                        .plaintext());
            }
        }
        assertThat(out).as("corpus").hasSizeGreaterThan(100);
        return out;
    }
}
