package eu.vpki.common.etsi.ts103097;

/** How a signed structure names its signer (IEEE 1609.2 SignerIdentifier). */
public enum SignerKind {
    /** HashedId8 of the signer's certificate: what EA/AA responses must use. */
    DIGEST,
    /** The signer's full certificate included. */
    CERTIFICATE,
    /** Self-signed with the key the payload carries (proof of possession, canonical-key signatures). */
    SELF
}
