package eu.vpki.common.error;

import org.bouncycastle.oer.its.etsi102941.AuthorizationResponseCode;
import org.bouncycastle.oer.its.etsi102941.AuthorizationValidationResponseCode;
import org.bouncycastle.oer.its.etsi102941.EnrolmentResponseCode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Our response-code numbers and names against the ASN.1 (as BouncyCastle's enumerations model it). */
class EtsiCodesTest {
    @Test
    void enrolmentCodes_matchTheAsn1() {
        assertThat(EtsiCodes.Enrolment.UNKNOWNITS).isEqualTo(EnrolmentResponseCode.unknownits.intValueExact());
        assertThat(EtsiCodes.Enrolment.DENIEDREQUEST).isEqualTo(EnrolmentResponseCode.deniedrequest.intValueExact());
        assertThat(EtsiCodes.Enrolment.BADITSSTATUS).isEqualTo(EnrolmentResponseCode.baditsstatus.intValueExact());
        assertThat(EtsiCodes.enrolmentName(EtsiCodes.Enrolment.INVALIDKEYS)).isEqualTo("invalidkeys");
    }

    @Test
    void authorizationCodes_matchTheAsn1() {
        assertThat(EtsiCodes.Authorization.ITS_AA_KEYSDONTMATCH).isEqualTo(AuthorizationResponseCode.its_aa_keysdontmatch.intValueExact());
        assertThat(EtsiCodes.Authorization.AA_EA_CANTREACHEA).isEqualTo(AuthorizationResponseCode.aa_ea_cantreachea.intValueExact());
        assertThat(EtsiCodes.Authorization.DENIEDTOOMANYCERTS).isEqualTo(AuthorizationResponseCode.deniedtoomanycerts.intValueExact());
        assertThat(EtsiCodes.authorizationName(EtsiCodes.Authorization.ITS_AA_UNKNOWNEA)).isEqualTo("its-aa-unknownea");
    }

    @Test
    void validationCodes_matchTheAsn1() {
        assertThat(EtsiCodes.Validation.UNKNOWNITS).isEqualTo(AuthorizationValidationResponseCode.unknownits.intValueExact());
        assertThat(EtsiCodes.Validation.DENIEDPERMISSIONS).isEqualTo(AuthorizationValidationResponseCode.deniedpermissions.intValueExact());
        assertThat(EtsiCodes.validationName(EtsiCodes.Validation.DENIEDREQUEST)).isEqualTo("deniedrequest");
        assertThat(EtsiCodes.validationName(99)).isEqualTo("code-99");
    }

    @Test
    void everyErrorCode_mapsToADefinedResponseCode() {
        for (ErrorCode c : ErrorCode.values()) {
            assertThat(EtsiCodes.enrolmentName(c.enrolmentResponseCode())).as(c.name()).doesNotStartWith("code-").isNotEqualTo("ok");
            assertThat(EtsiCodes.authorizationName(c.authorizationResponseCode())).as(c.name()).doesNotStartWith("code-")
                    .isNotEqualTo("ok");
            assertThat(EtsiCodes.validationName(c.authorizationValidationResponseCode())).as(c.name()).doesNotStartWith("code-")
                    .isNotEqualTo("ok");
        }
    }

    @Test
    void errorCodeNumbers_areUnique() {
        assertThat(java.util.Arrays.stream(ErrorCode.values()).map(ErrorCode::code).distinct().count())
                .isEqualTo(ErrorCode.values().length);
    }
}
