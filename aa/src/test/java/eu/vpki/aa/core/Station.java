package eu.vpki.aa.core;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EncryptedMessage;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.TestPki;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;

/** An ITS station for tests: its EC (issued by the test EA) and authorization requests to the test AA. */
public final class Station {
    public static final List<PsidSsp> CAM_DENM = List.of(PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
            PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff));

    final TestPki pki;
    final EtsiKeyPair ecKey;
    final EtsiCertificate ec;
    final DataEncryption encryption = new DataEncryption(RANDOM);
    EtsiKeyPair lastAtKey;

    Station(TestPki pki, EtsiCertificate ec, EtsiKeyPair ecKey) {
        this.pki = pki;
        this.ec = ec;
        this.ecKey = ecKey;
    }

    public static Station enrolled(TestPki pki, EtsiCurve curve) {
        EtsiKeyPair key = EtsiKeyPair.generate(curve, RANDOM);
        return new Station(pki, pki.issueEc(key), key);
    }

    public OutgoingRequest request(AuthorizationMessages.Protection protection, List<PsidSsp> permissions, Instant now) {
        return request(protection, SubjectAttributes.permissions(permissions), now, pki.ea);
    }

    OutgoingRequest request(AuthorizationMessages.Protection protection, SubjectAttributes requested, Instant now, EtsiCertificate ea) {
        lastAtKey = EtsiKeyPair.generate(ecKey.curve(), RANDOM);
        return AuthorizationMessages.request(new AuthorizationMessages.AtRequest(lastAtKey.publicKey(), null, requested),
                new SoftwareSigner(lastAtKey, RANDOM), ec, new SoftwareSigner(ecKey, RANDOM), ea, pki.aa.asEncryptionRecipient(),
                protection, now, RANDOM, encryption);
    }

    public AuthorizationMessages.AtResult read(byte[] response, OutgoingRequest request) {
        return AuthorizationMessages.readResponse(response, request, pki.aa, encryption);
    }

    /**
     * The same request content with one byte of the keyTag flipped (it follows the 8-byte eaId in
     * the SharedAtRequest), re-encrypted to the AA: decrypts fine, fails the keyTag (or, when signed,
     * the proof of possession).
     */
    OutgoingRequest tamperedKeyTag(byte[] plaintext) {
        byte[] eaId = pki.ea.hashedId8().bytes();
        int at = indexOf(plaintext, eaId);
        byte[] tampered = plaintext.clone();
        tampered[at + eaId.length] ^= 0x01;
        EncryptedMessage m = encryption.encryptFor(pki.aa.asEncryptionRecipient(), tampered);
        return new OutgoingRequest(m.encoded(), m.aesKey(), Arrays.copyOf(HashAlgorithm.SHA256.digest(m.encoded()), 16));
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i <= hay.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
