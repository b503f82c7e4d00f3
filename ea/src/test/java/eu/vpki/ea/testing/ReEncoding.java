package eu.vpki.ea.testing;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;

import java.util.Arrays;

/**
 * What an attacker can do to a captured request without any key: re-encode the ECIES ephemeral key
 * of its certRecipInfo from compressed ({@code compressed-y-0/1}, COER choice tags 0x82/0x83 and 32
 * bytes of x) to uncompressed ({@code uncompressedP256}, tag 0x84, x and y). The ECDH shared secret,
 * hence the AES key and everything the tag covers, stays the same: the new body decrypts to the same
 * request. In COER none of the enclosing structures carries a length, so the bytes can be replaced
 * in place.
 */
public final class ReEncoding {
    private ReEncoding() {
    }

    /**
     * {@code request} (an EtsiTs103097Data-Encrypted to {@code recipient}) with its ephemeral key
     * uncompressed: the same AES key, a new body and so a new requestHash (the first 16 bytes of
     * SHA-256 over the body as posted, which the response echoes).
     */
    public static OutgoingRequest ephemeralKeyUncompressed(OutgoingRequest request, EtsiCertificate recipient) {
        byte[] body = ephemeralKeyUncompressed(request.body(), recipient);
        return new OutgoingRequest(body, request.aesKey(), Arrays.copyOf(HashAlgorithm.SHA256.digest(body), 16));
    }

    /** {@code body} (an EtsiTs103097Data-Encrypted to {@code recipient}) with its ephemeral key uncompressed. */
    public static byte[] ephemeralKeyUncompressed(byte[] body, EtsiCertificate recipient) {
        int id = indexOf(body, recipient.hashedId8().bytes());
        int encKey = id + 8;
        int point = encKey + 1;
        EtsiCurve curve = switch (body[encKey]) {
            case (byte) 0x80 -> EtsiCurve.NIST_P256;
            case (byte) 0x81 -> EtsiCurve.BRAINPOOL_P256R1;
            default -> throw new IllegalArgumentException("not an ECIES P-256 key at " + encKey);
        };
        if (body[point] != (byte) 0x82 && body[point] != (byte) 0x83) {
            throw new IllegalArgumentException("ephemeral key is not compressed");
        }
        byte[] sec1 = new byte[33];
        sec1[0] = (byte) (body[point] == (byte) 0x82 ? 0x02 : 0x03);
        System.arraycopy(body, point + 1, sec1, 1, 32);
        byte[] uncompressed = EtsiPublicKey.fromEncodedPoint(curve, sec1).uncompressed();
        byte[] out = new byte[body.length + 32];
        System.arraycopy(body, 0, out, 0, point);
        out[point] = (byte) 0x84;
        System.arraycopy(uncompressed, 1, out, point + 1, 64);
        System.arraycopy(body, point + 33, out, point + 65, body.length - point - 33);
        return out;
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        throw new IllegalArgumentException("recipient id not found");
    }
}
