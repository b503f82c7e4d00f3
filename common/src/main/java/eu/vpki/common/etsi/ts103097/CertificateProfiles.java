package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.etsi.crypto.EtsiPublicKey;

import java.util.ArrayList;
import java.util.List;

/**
 * TS 103 097 v2.1.1 clause 7.2 certificate profiles, with the SSPs and SSP ranges of the ETSI test
 * suite: the root CA signs CRLs (622, SSP 01) and CTLs (624, SSP 0138) and may certify EAs and AAs;
 * an EA and an AA use the secured certificate request service (623) and issue ECs resp. ATs.
 */
public final class CertificateProfiles {
    private CertificateProfiles() {
    }

    public static final int ROOT_ASSURANCE = 0xC0;
    public static final int CA_ASSURANCE = 0x80;
    public static final int END_ENTITY_ASSURANCE = 0x60;

    /** SSP of an EC's secured certificate request permission: may send enrolment and authorization requests. */
    public static final byte[] EC_SSP = {0x01, (byte) 0xC0};
    /** SSP of an EA's own 623 permission (enrolment and validation responses, CA requests). */
    public static final byte[] EA_SSP = {0x01, 0x0E};
    /** SSP of an AA's own 623 permission. */
    public static final byte[] AA_SSP = {0x01, 0x32};

    /** The AT permissions of the ETSI test suite: what an AA may grant by default. */
    public static List<PsidSspRange> defaultAuthorizationTicketRanges() {
        return List.of(
                PsidSspRange.bitmap(Psids.CAM, hex("01fffc"), hex("ff0003")),
                PsidSspRange.bitmap(Psids.DENM, hex("01ffffff"), hex("ff000000")),
                PsidSspRange.bitmap(Psids.SPATEM, hex("01e0"), hex("ff1f")),
                PsidSspRange.bitmap(Psids.MAPEM, hex("01c0"), hex("ff3f")),
                PsidSspRange.bitmap(Psids.IVIM, hex("01000000fff8"), hex("ff0000000007")),
                PsidSspRange.bitmap(Psids.SREM_SSEM, hex("01ffffe0"), hex("ff00001f")),
                PsidSspRange.all(Psids.GN_MGMT));
    }

    public static CertificateTemplate rootCa(String name, Validity validity, EtsiPublicKey verificationKey,
                                             EtsiPublicKey encryptionKey, List<PsidSspRange> atRanges, GeographicRegion region) {
        List<PsidGroupPermissions> issue = List.of(
                // through AAs (chain RCA -> AA -> AT): the AT permissions
                new PsidGroupPermissions(false, atRanges, 2, 0, true, true),
                // directly to EAs and AAs: their secured-certificate-request permission
                new PsidGroupPermissions(false, List.of(PsidSspRange.bitmap(Psids.SECURED_CERTIFICATE_REQUEST,
                        hex("01fe"), hex("ff01"))), 1, 0, true, true));
        return new CertificateTemplate(name, validity, region, ROOT_ASSURANCE,
                List.of(PsidSsp.bitmap(Psids.CRL, (byte) 0x01), PsidSsp.bitmap(Psids.CTL, (byte) 0x01, (byte) 0x38)),
                issue, verificationKey, encryptionKey);
    }

    public static CertificateTemplate enrolmentAuthority(String name, Validity validity, EtsiPublicKey verificationKey,
                                                         EtsiPublicKey encryptionKey, GeographicRegion region) {
        List<PsidGroupPermissions> issue = List.of(new PsidGroupPermissions(false,
                List.of(PsidSspRange.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, EC_SSP, hex("ffff"))), 1, 0, true, true));
        return new CertificateTemplate(name, validity, region, CA_ASSURANCE,
                List.of(PsidSsp.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, EA_SSP)), issue, verificationKey, encryptionKey);
    }

    public static CertificateTemplate authorizationAuthority(String name, Validity validity, EtsiPublicKey verificationKey,
                                                             EtsiPublicKey encryptionKey, List<PsidSspRange> atRanges,
                                                             GeographicRegion region) {
        List<PsidGroupPermissions> issue = List.of(new PsidGroupPermissions(false, atRanges, 1, 0, true, false));
        return new CertificateTemplate(name, validity, region, CA_ASSURANCE,
                List.of(PsidSsp.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, AA_SSP)), issue, verificationKey, encryptionKey);
    }

    /** An Enrolment Credential: identity-free certificate with permission to request ATs and re-enrol. */
    public static CertificateTemplate enrolmentCredential(Validity validity, EtsiPublicKey verificationKey,
                                                          EtsiPublicKey encryptionKey, GeographicRegion region) {
        return new CertificateTemplate(null, validity, region, END_ENTITY_ASSURANCE,
                List.of(PsidSsp.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, EC_SSP)), List.of(), verificationKey, encryptionKey);
    }

    /** An Authorization Ticket (pseudonym): id none, the granted application permissions. */
    public static CertificateTemplate authorizationTicket(Validity validity, EtsiPublicKey verificationKey,
                                                          EtsiPublicKey encryptionKey, List<PsidSsp> appPermissions,
                                                          GeographicRegion region) {
        return new CertificateTemplate(null, validity, region, END_ENTITY_ASSURANCE, new ArrayList<>(appPermissions), List.of(),
                verificationKey, encryptionKey);
    }

    private static byte[] hex(String s) {
        return java.util.HexFormat.of().parseHex(s);
    }
}
