package eu.vpki.rca.core;

/** The sub-CAs a Root CA certifies. */
public enum AuthorityType {
    /** Enrolment Authority: issues enrolment credentials, validates authorization requests for AAs. */
    EA,
    /** Authorization Authority: issues authorization tickets. */
    AA
}
