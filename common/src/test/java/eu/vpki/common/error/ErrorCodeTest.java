package eu.vpki.common.error;

import eu.vpki.common.replication.ReplicationException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ErrorCodeTest {

    @Test
    void replicationCodes_keepTheirFormerNumbersAsLastDigit() {
        Map<String, Integer> codes = Arrays.stream(ErrorCode.values()).filter(ErrorCode::replication)
                .collect(Collectors.toMap(ErrorCode::name, ErrorCode::code));
        assertThat(codes).containsExactlyInAnyOrderEntriesOf(Map.of("NOT_CONNECTED", 711, "NO_MAJORITY", 712,
                "TIMEOUT_OUTCOME_UNKNOWN", 713, "APPLY_FAILED", 714, "STATE_TRANSFER_FAILED", 715, "NOT_SERVING", 716));
    }

    @Test
    void replicationCodes_areReportedAsReplicationUnavailable_othersAsThemselves() {
        for (ErrorCode code : ErrorCode.values()) {
            assertThat(code.reported()).as(code.name()).isEqualTo(code.replication() ? ErrorCode.REPLICATION_UNAVAILABLE : code);
            if (code.replication()) {
                assertThat(code.serverSide()).as(code.name()).isTrue();
                assertThat(code.enrolmentResponseCode()).isEqualTo(ErrorCode.REPLICATION_UNAVAILABLE.enrolmentResponseCode());
                assertThat(code.authorizationResponseCode()).isEqualTo(ErrorCode.REPLICATION_UNAVAILABLE.authorizationResponseCode());
                assertThat(code.authorizationValidationResponseCode())
                        .isEqualTo(ErrorCode.REPLICATION_UNAVAILABLE.authorizationValidationResponseCode());
            }
        }
    }

    @Test
    void replicationException_isAPkiException_whoseMessageStartsWithItsCode() {
        PkiException e = new ReplicationException(ErrorCode.NO_MAJORITY, "view [r0] of 3");
        assertThat(e.code()).isEqualTo(ErrorCode.NO_MAJORITY);
        assertThat(e.getMessage()).isEqualTo("NO_MAJORITY: view [r0] of 3");
        assertThat(e.toString()).isEqualTo("eu.vpki.common.replication.ReplicationException: NO_MAJORITY: view [r0] of 3");
    }

    @Test
    void replicationException_refusesACodeOutsideReplication() {
        assertThatThrownBy(() -> new ReplicationException(ErrorCode.INVALID_KEY, "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
