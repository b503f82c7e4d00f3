package eu.vpki.common.error;

import eu.vpki.common.error.EtsiCodes.Authorization;
import eu.vpki.common.error.EtsiCodes.Enrolment;
import eu.vpki.common.error.EtsiCodes.Validation;
import eu.vpki.common.replication.ReplicationException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EtsiRefusalTest {

    @Test
    void ourError_isAnsweredWithItsCodeOnEachPath() {
        PkiException e = new PkiException(ErrorCode.UNKNOWN_STATION, "station s1 is not registered");
        assertThat(EtsiRefusal.enrolment(e).responseCode()).isEqualTo(Enrolment.UNKNOWNITS);
        assertThat(EtsiRefusal.authorization(e).responseCode()).isEqualTo(Authorization.UNKNOWNITS);
        assertThat(EtsiRefusal.validation(e).responseCode()).isEqualTo(Validation.UNKNOWNITS);
        assertThat(EtsiRefusal.enrolment(e).reason()).isEqualTo(ErrorCode.UNKNOWN_STATION);
        assertThat(EtsiRefusal.enrolment(e).detail()).isEqualTo("station s1 is not registered");
        assertThat(EtsiRefusal.enrolment(e).responseName()).isEqualTo("unknownits");
    }

    @Test
    void replicationFailure_isReportedAsReplicationUnavailable() {
        EtsiRefusal refusal = EtsiRefusal.enrolment(new ReplicationException(ErrorCode.NO_MAJORITY, "view of 1"));
        assertThat(refusal.reason()).isEqualTo(ErrorCode.REPLICATION_UNAVAILABLE);
        assertThat(refusal.responseCode()).isEqualTo(Enrolment.DENIEDREQUEST);
        assertThat(EtsiRefusal.codeOf(new ReplicationException(ErrorCode.NOT_SERVING, "catching up")))
                .isEqualTo(ErrorCode.REPLICATION_UNAVAILABLE);
    }

    @Test
    void anythingElse_isAnInternalFailure_whoseDetailStaysOutOfTheResponseCode() {
        EtsiRefusal refusal = EtsiRefusal.authorization(new IllegalStateException("boom"));
        assertThat(refusal.reason()).isEqualTo(ErrorCode.INTERNAL_ERROR);
        assertThat(refusal.responseCode()).isEqualTo(ErrorCode.INTERNAL_ERROR.authorizationResponseCode());
        assertThat(refusal.detail()).isEqualTo("java.lang.IllegalStateException: boom");
    }

    @Test
    void eaRefusal_isAnsweredWithTheEaToAaCode() {
        EtsiRefusal refusal = EtsiRefusal.eaRefused(Validation.UNKNOWNITS);
        assertThat(refusal.responseCode()).isEqualTo(Authorization.UNKNOWNITS);
        assertThat(refusal.reason()).isEqualTo(ErrorCode.EA_REFUSED);
        assertThat(refusal.responseName()).isEqualTo("unknownits");
    }

    @Test
    void aRefusal_neverCarriesOk() {
        assertThatThrownBy(() -> new EtsiRefusal(EtsiRefusal.Path.ENROLMENT, Enrolment.OK, ErrorCode.INTERNAL_ERROR, "x", null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
