package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.etsi.crypto.EtsiCurve;

/**
 * The message digest IEEE 1609.2 (5.3.1) signs: Hash(Hash(to-be-signed COER) || Hash(signer
 * identifier input)), where the signer input is the COER of the signer's certificate, or the empty
 * string for a self-signed structure. The hash is the one paired with the signing key's curve.
 */
final class SignatureInput {
    private SignatureInput() {
    }

    static byte[] digest(EtsiCurve curve, byte[] toBeSigned, byte[] signerCertificate) {
        var h = curve.hash();
        return h.digest(h.digest(toBeSigned), h.digest(signerCertificate));
    }
}
