package eu.vpki.common.etsi.oer;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.oer.Element;
import org.bouncycastle.oer.OERDefinition;
import org.bouncycastle.oer.OEREncoder;
import org.bouncycastle.oer.OERInputStream;
import org.bouncycastle.oer.its.etsi102941.AuthorizationValidationRequest;
import org.bouncycastle.oer.its.etsi102941.AuthorizationValidationResponse;
import org.bouncycastle.oer.its.etsi102941.CaCertificateRequest;
import org.bouncycastle.oer.its.etsi102941.EtsiTs102941Data;
import org.bouncycastle.oer.its.etsi102941.InnerAtRequest;
import org.bouncycastle.oer.its.etsi102941.InnerAtResponse;
import org.bouncycastle.oer.its.etsi102941.InnerEcRequest;
import org.bouncycastle.oer.its.etsi102941.InnerEcResponse;
import org.bouncycastle.oer.its.etsi102941.SharedAtRequest;
import org.bouncycastle.oer.its.etsi103097.EtsiTs103097Certificate;
import org.bouncycastle.oer.its.ieee1609dot2.Ieee1609Dot2Data;
import org.bouncycastle.oer.its.ieee1609dot2.ToBeSignedCertificate;
import org.bouncycastle.oer.its.ieee1609dot2.ToBeSignedData;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.PublicEncryptionKey;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.PublicVerificationKey;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.Signature;
import org.bouncycastle.oer.its.ieee1609dot2.basetypes.SymmetricEncryptionKey;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941MessagesCa;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TrustLists;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TypesAuthorization;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TypesAuthorizationValidation;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TypesCaManagement;
import org.bouncycastle.oer.its.template.etsi102941.EtsiTs102941TypesEnrolment;
import org.bouncycastle.oer.its.template.etsi103097.EtsiTs103097Module;
import org.bouncycastle.oer.its.template.ieee1609dot2.IEEE1609dot2;
import org.bouncycastle.oer.its.template.ieee1609dot2.basetypes.Ieee1609Dot2BaseTypes;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Canonical OER encoding and decoding of the ETSI / IEEE types, with each OER definition built once
 * (rebuilding it per call made encoding 2.2x slower) and copied into {@link UnlabelledElement}s, so
 * that BouncyCastle's encoder does not build a debug label for each element it writes. Decoding re-encodes and compares, so a
 * non-canonical or trailing-garbage input is refused, and returns the ASN.1 class of the type: an
 * encoding the OER parser accepts but that class refuses (an extension alternative of a CHOICE, found
 * by fuzzing: docs/security.md) is malformed, not a library exception. Internal to the ETSI core:
 * BouncyCastle types do not leave {@code eu.vpki.common.etsi}.
 */
public final class Coer {
    /** Upper bound on any single ETSI structure we decode (a CTL with many entries fits easily). */
    public static final int MAX_INPUT_BYTES = 1 << 20;

    /** The top-level types this PKI encodes and decodes. */
    public enum Type {
        CERTIFICATE(EtsiTs103097Module.EtsiTs103097Certificate, EtsiTs103097Certificate::getInstance), TO_BE_SIGNED_CERTIFICATE(
                IEEE1609dot2.ToBeSignedCertificate, ToBeSignedCertificate::getInstance), DATA(EtsiTs103097Module.EtsiTs103097Data,
                        Ieee1609Dot2Data::getInstance), TO_BE_SIGNED_DATA(IEEE1609dot2.ToBeSignedData,
                                ToBeSignedData::getInstance), PUBLIC_VERIFICATION_KEY(Ieee1609Dot2BaseTypes.PublicVerificationKey,
                                        PublicVerificationKey::getInstance), SIGNATURE(Ieee1609Dot2BaseTypes.Signature,
                                                Signature::getInstance), PUBLIC_ENCRYPTION_KEY(Ieee1609Dot2BaseTypes.PublicEncryptionKey,
                                                        PublicEncryptionKey::getInstance), SYMMETRIC_ENCRYPTION_KEY(
                                                                Ieee1609Dot2BaseTypes.SymmetricEncryptionKey,
                                                                SymmetricEncryptionKey::getInstance), ETSI_TS102941_DATA(
                                                                        EtsiTs102941MessagesCa.EtsiTs102941Data,
                                                                        EtsiTs102941Data::getInstance), INNER_EC_REQUEST(
                                                                                EtsiTs102941TypesEnrolment.InnerEcRequest,
                                                                                InnerEcRequest::getInstance), INNER_EC_RESPONSE(
                                                                                        EtsiTs102941TypesEnrolment.InnerEcResponse,
                                                                                        InnerEcResponse::getInstance), INNER_AT_REQUEST(
                                                                                                EtsiTs102941TypesAuthorization.InnerAtRequest,
                                                                                                InnerAtRequest::getInstance), INNER_AT_RESPONSE(
                                                                                                        EtsiTs102941TypesAuthorization.InnerAtResponse,
                                                                                                        InnerAtResponse::getInstance), SHARED_AT_REQUEST(
                                                                                                                EtsiTs102941TypesAuthorization.SharedAtRequest,
                                                                                                                SharedAtRequest::getInstance), AUTHORIZATION_VALIDATION_REQUEST(
                                                                                                                        EtsiTs102941TypesAuthorizationValidation.AuthorizationValidationRequest,
                                                                                                                        AuthorizationValidationRequest::getInstance), AUTHORIZATION_VALIDATION_RESPONSE(
                                                                                                                                EtsiTs102941TypesAuthorizationValidation.AuthorizationValidationResponse,
                                                                                                                                AuthorizationValidationResponse::getInstance),
        /** Our definition: BC 1.86 writes {@code version} as one byte (bug 7), the ASN.1 wants {@code 01 01}. */
        TO_BE_SIGNED_CRL(TrustListDefinitions.TO_BE_SIGNED_CRL, ASN1Sequence::getInstance),
        /** Our definition, for the same reason as {@link #TO_BE_SIGNED_CRL}. */
        TO_BE_SIGNED_RCA_CTL(TrustListDefinitions.TO_BE_SIGNED_RCA_CTL, ASN1Sequence::getInstance), CA_CERTIFICATE_REQUEST(
                EtsiTs102941TypesCaManagement.CaCertificateRequest, CaCertificateRequest::getInstance);

        /** BouncyCastle's definition, as its templates (or {@link TrustListDefinitions}) declare it. */
        final OERDefinition.Builder builder;
        /** The ASN.1 class's {@code getInstance}: builds (and so checks) the typed structure. */
        private final Function<Object, ? extends ASN1Encodable> asn1Class;

        Type(OERDefinition.Builder builder, Function<Object, ? extends ASN1Encodable> asn1Class) {
            this.builder = builder;
            this.asn1Class = asn1Class;
        }
    }

    private static final Map<Type, Element> DEFINITIONS = new EnumMap<>(Type.class);

    static {
        for (Type t : Type.values()) {
            DEFINITIONS.put(t, UnlabelledElement.copyOf(t.builder.build()));
        }
    }

    /** The definition encode and decode use: BouncyCastle's, without its debug labels ({@link UnlabelledElement}). */
    static Element definition(Type type) {
        return DEFINITIONS.get(type);
    }

    private Coer() {
    }

    public static byte[] encode(ASN1Encodable value, Type type) {
        try {
            return OEREncoder.toByteArray(value, DEFINITIONS.get(type));
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.INTERNAL_ERROR, "cannot encode " + type + ": " + e.getMessage(), e);
        }
    }

    /**
     * Decodes {@code bytes} as {@code type}, builds the type's ASN.1 class from it and checks that
     * re-encoding gives the same bytes. The result is an instance of that class (e.g.
     * {@code Ieee1609Dot2Data} for {@link Type#DATA}), so {@code X.getInstance(result)} returns it as is.
     *
     * @throws PkiException {@link ErrorCode#OVERSIZE_INPUT}, {@link ErrorCode#MALFORMED_ENCODING} or
     *                      {@link ErrorCode#NON_CANONICAL_ENCODING}
     */
    public static ASN1Encodable decode(byte[] bytes, Type type) {
        if (bytes == null || bytes.length == 0) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "empty input for " + type);
        }
        if (bytes.length > MAX_INPUT_BYTES) {
            throw new PkiException(ErrorCode.OVERSIZE_INPUT, type + " of " + bytes.length + " bytes exceeds " + MAX_INPUT_BYTES);
        }
        ASN1Encodable parsed;
        try {
            parsed = type.asn1Class.apply(OERInputStream.parse(bytes, DEFINITIONS.get(type)));
        } catch (Exception | StackOverflowError | OutOfMemoryError e) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "not a COER " + type + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()), e);
        }
        byte[] again;
        try {
            again = OEREncoder.toByteArray(parsed, DEFINITIONS.get(type));
        } catch (RuntimeException e) {
            throw new PkiException(ErrorCode.MALFORMED_ENCODING, "decoded " + type + " does not re-encode: " + e.getMessage(), e);
        }
        if (!Arrays.equals(again, bytes)) {
            throw new PkiException(ErrorCode.NON_CANONICAL_ENCODING, type + " is not canonical COER (or has trailing bytes)");
        }
        return parsed;
    }
}
