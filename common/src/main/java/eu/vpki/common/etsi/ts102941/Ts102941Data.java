package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.oer.Coer;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.oer.its.etsi102941.EtsiTs102941Data;
import org.bouncycastle.oer.its.etsi102941.EtsiTs102941DataContent;
import org.bouncycastle.oer.its.etsi102941.basetypes.Version;

import java.util.Arrays;

/**
 * EtsiTs102941Data (version v1) around one content choice. CRL and CTL contents are encoded with our
 * corrected definitions: {@code EtsiTs102941Data} has no extension marker and a single-valued
 * version, so its COER is {@code 01} then the CHOICE tag ({@code 0x80 | index}) then the root
 * alternative's own encoding.
 */
final class Ts102941Data {
    static final int VERSION_1 = 1;
    private static final byte TAG_CRL = (byte) (0x80 | EtsiTs102941DataContent.certificateRevocationList);
    private static final byte TAG_CTL_RCA = (byte) (0x80 | EtsiTs102941DataContent.certificateTrustListRca);

    private Ts102941Data() {
    }

    static byte[] wrap(int choice, ASN1Encodable content) {
        return Coer.encode(new EtsiTs102941Data(new Version(VERSION_1), new EtsiTs102941DataContent(choice, content)),
                Coer.Type.ETSI_TS102941_DATA);
    }

    /** Decodes and returns the content of the expected choice, else UNEXPECTED_CONTENT. */
    static ASN1Encodable unwrap(byte[] encoded, int expectedChoice) {
        EtsiTs102941Data data = EtsiTs102941Data.getInstance(Coer.decode(encoded, Coer.Type.ETSI_TS102941_DATA));
        if (data.getVersion().getVersion().intValue() != VERSION_1) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "EtsiTs102941Data version must be v1");
        }
        if (data.getContent().getChoice() != expectedChoice) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "EtsiTs102941Data holds choice " + data.getContent().getChoice()
                    + " where " + expectedChoice + " was expected");
        }
        return data.getContent().getEtsiTs102941DataContent();
    }

    static byte[] wrapCrl(byte[] toBeSignedCrl) {
        return prefix(TAG_CRL, toBeSignedCrl);
    }

    static byte[] wrapRcaCtl(byte[] toBeSignedRcaCtl) {
        return prefix(TAG_CTL_RCA, toBeSignedRcaCtl);
    }

    static byte[] unwrapCrl(byte[] data) {
        return unprefix(TAG_CRL, data, "certificateRevocationList");
    }

    static byte[] unwrapRcaCtl(byte[] data) {
        return unprefix(TAG_CTL_RCA, data, "certificateTrustListRca");
    }

    private static byte[] prefix(byte tag, byte[] content) {
        byte[] out = new byte[content.length + 2];
        out[0] = VERSION_1;
        out[1] = tag;
        System.arraycopy(content, 0, out, 2, content.length);
        return out;
    }

    private static byte[] unprefix(byte tag, byte[] data, String what) {
        if (data.length < 3 || data[0] != VERSION_1) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "not an EtsiTs102941Data v1");
        }
        if (data[1] != tag) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "EtsiTs102941Data does not hold a " + what);
        }
        return Arrays.copyOfRange(data, 2, data.length);
    }
}
