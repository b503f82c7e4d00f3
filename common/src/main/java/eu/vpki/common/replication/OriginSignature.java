package eu.vpki.common.replication;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * The origin's proof that it issued a {@link Command}: its replica certificate (X.509, DER, from the
 * deployment CA, subject {@code CN=<replica id>}) and its ECDSA nistP256 signature, {@code r || s}, over
 * the SHA-256 of the command's unsigned encoding ({@link CommandCodec#unsignedEncoding}).
 */
public record OriginSignature(byte[] certificate, byte[] signature) {
    /** Bytes of {@code r || s}. */
    static final int SIGNATURE_BYTES = 64;

    public OriginSignature {
        if (certificate.length == 0) {
            throw new IllegalArgumentException("no certificate");
        }
        if (signature.length != SIGNATURE_BYTES) {
            throw new IllegalArgumentException("signature must be " + SIGNATURE_BYTES + " bytes (r || s), got " + signature.length);
        }
        certificate = certificate.clone();
        signature = signature.clone();
    }

    @Override
    public byte[] certificate() {
        return certificate.clone();
    }

    @Override
    public byte[] signature() {
        return signature.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OriginSignature other && Arrays.equals(other.certificate, certificate)
                && Arrays.equals(other.signature, signature);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(certificate) + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "OriginSignature[" + certificate.length + "-byte certificate, " + HexFormat.of().formatHex(signature, 0, 8) + "...]";
    }
}
