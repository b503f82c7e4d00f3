package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.HashAlgorithm;

import java.security.SecureRandom;

/**
 * A stand-in for an EA/AA certificate with an encryption key: random bytes play the certificate's
 * COER encoding, from which its HashedId8 and whole-certificate hash are computed as for a real one.
 */
record EncryptionFixtures(EtsiKeyPair keyPair, byte[] certificate) {
    static final SecureRandom RANDOM = new SecureRandom();

    static EncryptionFixtures certificateOn(EtsiCurve curve) {
        byte[] certificate = new byte[120];
        RANDOM.nextBytes(certificate);
        return new EncryptionFixtures(EtsiKeyPair.generate(curve, RANDOM), certificate);
    }

    HashedId8 certificateId() {
        return HashedId8.hashOf(certificate, HashAlgorithm.SHA256);
    }

    byte[] certificateHash() {
        return HashAlgorithm.SHA256.digest(certificate);
    }

    EncryptionRecipient recipient() {
        return new EncryptionRecipient(keyPair.publicKey(), certificateId(), certificateHash());
    }

    DecryptionIdentity identity() {
        return new DecryptionIdentity(keyPair, certificateId(), certificateHash());
    }

    static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }
}
