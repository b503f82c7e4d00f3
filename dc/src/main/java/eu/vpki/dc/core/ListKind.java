package eu.vpki.dc.core;

import eu.vpki.common.distribution.DistributionPaths;

/** The lists a DC holds per Root CA, with their file names and content types. */
public enum ListKind {
    CTL("ctl", "ctl.coer", DistributionPaths.CTL_CONTENT_TYPE), DELTA_CTL("ctl-delta", "ctl-delta.coer",
            DistributionPaths.CTL_CONTENT_TYPE), CRL("crl", "crl.coer", DistributionPaths.CRL_CONTENT_TYPE);

    private final String pathName;
    private final String fileName;
    private final String contentType;

    ListKind(String pathName, String fileName, String contentType) {
        this.pathName = pathName;
        this.fileName = fileName;
        this.contentType = contentType;
    }

    /** The name in {@code /publish/{RCA}/{name}}. */
    public String pathName() {
        return pathName;
    }

    public String fileName() {
        return fileName;
    }

    public String contentType() {
        return contentType;
    }

    public static ListKind fromPathName(String name) {
        for (ListKind k : values()) {
            if (k.pathName.equals(name)) {
                return k;
            }
        }
        throw new eu.vpki.common.error.PkiException(eu.vpki.common.error.ErrorCode.NOT_FOUND,
                "no list kind '" + name + "' (ctl, ctl-delta or crl)");
    }
}
