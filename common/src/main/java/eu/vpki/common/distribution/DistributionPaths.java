package eu.vpki.common.distribution;

import eu.vpki.common.etsi.ts103097.HashedId8;

import java.net.URI;

/**
 * The Distribution Centre's URLs and content types (TS 102 941 Annex D), in one place for the DC
 * that serves them and the clients that fetch them. RCA ids in paths are HashedId8 in upper-case hex.
 */
public final class DistributionPaths {
    private DistributionPaths() {
    }

    /** Content type of a CTL ({@code RcaCertificateTrustListMessage}). */
    public static final String CTL_CONTENT_TYPE = "application/x-its-ctl";
    /** Content type of a CRL ({@code CertificateRevocationListMessage}). */
    public static final String CRL_CONTENT_TYPE = "application/x-its-crl";
    /** Content type of a COER certificate. */
    public static final String CERTIFICATE_CONTENT_TYPE = "application/octet-stream";

    /** {@code {dc}/getctl/{RCA}}: the latest full CTL. */
    public static URI ctl(URI dc, HashedId8 rca) {
        return join(dc, "getctl/" + rca.toHex());
    }

    /** {@code {dc}/getctl/{RCA}/delta}: the latest delta CTL (changes against the previous sequence); our extension. */
    public static URI deltaCtl(URI dc, HashedId8 rca) {
        return join(dc, "getctl/" + rca.toHex() + "/delta");
    }

    /** {@code {dc}/getcrl/{RCA}}: the latest CRL. */
    public static URI crl(URI dc, HashedId8 rca) {
        return join(dc, "getcrl/" + rca.toHex());
    }

    /** {@code {dc}/getcert/{RCA}}: the RCA certificate (COER); our extension, to be checked against a pinned HashedId8. */
    public static URI certificate(URI dc, HashedId8 rca) {
        return join(dc, "getcert/" + rca.toHex());
    }

    /** The ETag of a list or certificate: the quoted lower-case hex SHA-256 of its bytes (stable across DCs). */
    public static String etag(byte[] body) {
        return "\"" + java.util.HexFormat.of().formatHex(eu.vpki.common.etsi.crypto.HashAlgorithm.SHA256.digest(body)) + "\"";
    }

    /** {@code base} and a relative path, with exactly one slash between them. */
    public static URI join(URI base, String relative) {
        String b = base.toString();
        return URI.create(b.endsWith("/") ? b + relative : b + "/" + relative);
    }
}
