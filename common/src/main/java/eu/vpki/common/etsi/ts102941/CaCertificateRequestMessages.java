package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.oer.Coer;
import eu.vpki.common.etsi.ts103097.CertificateFields;
import eu.vpki.common.etsi.ts103097.CertificateTemplate;
import eu.vpki.common.etsi.ts103097.DataSigning;
import eu.vpki.common.etsi.ts103097.GeographicRegion;
import eu.vpki.common.etsi.ts103097.PsidGroupPermissions;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.SignerKind;
import eu.vpki.common.etsi.ts103097.Validity;
import org.bouncycastle.oer.its.etsi102941.CaCertificateRequest;
import org.bouncycastle.oer.its.etsi102941.EtsiTs102941DataContent;
import org.bouncycastle.oer.its.etsi102941.basetypes.CertificateSubjectAttributes;
import org.bouncycastle.oer.its.ieee1609dot2.CertificateId;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Hostname;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SubjectAssurance;

import java.time.Instant;
import java.util.List;

/**
 * TS 102 941 CA certificate request (clause 6.2.1, {@code CaCertificateRequestMessage}), both sides.
 * An EA or AA that wants its first certificate from the Root CA sends a {@code CaCertificateRequest}
 * (its public keys and the subject attributes it asks for) wrapped in {@code EtsiTs102941Data} v1 and
 * self-signed ({@code EtsiTs103097Data-Signed}, signer self, PSID 623) with the new verification key
 * it asks to have certified: the self-signature is its proof of possession. The request is not
 * encrypted; the Root CA authenticates the requester out of band (here: the admin API token) and only
 * checks here that the requester holds the key.
 *
 * <p>Re-keying ({@code CaCertificateRekeyingMessage}, an outer signature by the current certificate)
 * is not supported yet: TODO(#3) when sub-CA re-keying is needed.
 */
public final class CaCertificateRequestMessages {
    private CaCertificateRequestMessages() {
    }

    /**
     * What a sub-CA asks for. {@code name} is the certificate id (hostname form); validity, region,
     * assurance level and permissions may be absent (null or empty): the Root CA decides them.
     */
    public record CaRequest(String name, EtsiPublicKey verificationKey, EtsiPublicKey encryptionKey, Validity validity,
                            GeographicRegion region, Integer assuranceLevel, List<PsidSsp> appPermissions,
                            List<PsidGroupPermissions> certIssuePermissions) {
        public CaRequest {
            if (verificationKey == null) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, "a CA certificate request needs a verification key");
            }
            if (name != null && (name.isEmpty() || name.length() > 255)) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, "certificate name must be 1 to 255 characters");
            }
            appPermissions = appPermissions == null ? List.of() : List.copyOf(appPermissions);
            certIssuePermissions = certIssuePermissions == null ? List.of() : List.copyOf(certIssuePermissions);
        }

        /** The request for exactly what a certificate template says (e.g. one from {@code CertificateProfiles}). */
        public static CaRequest fromTemplate(CertificateTemplate t) {
            return new CaRequest(t.name(), t.verificationKey(), t.encryptionKey(), t.validity(), t.region(), t.assuranceLevel(),
                    t.appPermissions(), t.certIssuePermissions());
        }
    }

    /** A parsed request whose self-signature verified with the requested verification key. */
    public record ReceivedCaRequest(CaRequest request, Instant generationTime) {
    }

    // ---- sub-CA side ----

    /**
     * Builds the self-signed request. {@code newVerificationKey} must sign with the key the request
     * asks to have certified.
     *
     * @return the COER {@code CaCertificateRequestMessage}
     */
    public static byte[] request(CaRequest request, EtsiSigner newVerificationKey, Instant now) {
        if (!newVerificationKey.publicKey().equals(request.verificationKey())) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "a CA certificate request is signed with the requested verification key");
        }
        CertificateSubjectAttributes attributes = new CertificateSubjectAttributes(
                request.name() == null ? null : CertificateId.name(new Hostname(request.name())),
                request.validity() == null ? null : CertificateFields.toOer(request.validity()),
                CertificateFields.toOer(request.region()),
                request.assuranceLevel() == null ? null : new SubjectAssurance(new byte[]{(byte) request.assuranceLevel().intValue()}),
                request.appPermissions().isEmpty() ? null : CertificateFields.toOer(request.appPermissions()),
                request.certIssuePermissions().isEmpty() ? null : CertificateFields.toOerGroups(request.certIssuePermissions()));
        CaCertificateRequest body = new CaCertificateRequest(
                Ts102941Fields.publicKeys(request.verificationKey(), request.encryptionKey()), attributes);
        byte[] data = Ts102941Data.wrap(EtsiTs102941DataContent.caCertificateRequest, body);
        return DataSigning.sign(data, Psids.SECURED_CERTIFICATE_REQUEST, now, SignerKind.SELF, newVerificationKey, null);
    }

    // ---- Root CA side ----

    /**
     * Parses a {@code CaCertificateRequestMessage} and verifies its self-signature with the
     * verification key it requests.
     *
     * @throws PkiException MALFORMED_ENCODING / NON_CANONICAL_ENCODING / UNEXPECTED_CONTENT when it is
     *                      not such a message, INVALID_KEY for a bad key, PROOF_OF_POSSESSION_FAILED when
     *                      the self-signature does not verify
     */
    public static ReceivedCaRequest parseRequest(byte[] body) {
        SignedMessage signed = SignedMessage.parse(body).requirePsid(Psids.SECURED_CERTIFICATE_REQUEST);
        if (signed.signerKind() != SignerKind.SELF) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "a CA certificate request must be self-signed, signer is "
                    + signed.signerKind() + " (re-keying requests are not supported)");
        }
        CaRequest request;
        try {
            CaCertificateRequest r = CaCertificateRequest.getInstance(
                    Ts102941Data.unwrap(signed.requirePayload(), EtsiTs102941DataContent.caCertificateRequest));
            CertificateSubjectAttributes a = r.getRequestedSubjectAttributes();
            String name = a.getId() != null && a.getId().getChoice() == CertificateId.name
                    ? Hostname.getInstance(a.getId().getCertificateId()).getHostName()
                    : null;
            request = new CaRequest(name, Ts102941Fields.verificationKey(r.getPublicKeys()),
                    Ts102941Fields.encryptionKey(r.getPublicKeys()),
                    a.getValidityPeriod() == null ? null : CertificateFields.fromOer(a.getValidityPeriod()),
                    CertificateFields.fromOer(a.getRegion()),
                    a.getAssuranceLevel() == null ? null : a.getAssuranceLevel().getOctets()[0] & 0xFF,
                    CertificateFields.fromOer(a.getAppPermissions()),
                    CertificateFields.fromOerGroups(a.getCertIssuePermissions()));
        } catch (PkiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "CA certificate request not understood: " + e.getMessage(), e);
        }
        signed.requireSelfSignedBy(request.verificationKey(), ErrorCode.PROOF_OF_POSSESSION_FAILED);
        return new ReceivedCaRequest(request, signed.generationTime().orElse(null));
    }
}
