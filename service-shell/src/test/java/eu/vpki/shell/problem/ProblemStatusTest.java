package eu.vpki.shell.problem;

import eu.vpki.common.error.ErrorCode;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemStatusTest {
    @Test
    void everyCode_hasAnErrorStatus_andOnlyInternalOnesAre5xxOrUnavailable() {
        for (ErrorCode code : ErrorCode.values()) {
            HttpStatus status = ProblemStatus.of(code);
            assertThat(status.isError()).as(code.name()).isTrue();
            if (status.is5xxServerError() && !code.replication()) {
                assertThat(code).isIn(ErrorCode.INTERNAL_ERROR, ErrorCode.KEY_STORE_FAILURE, ErrorCode.UNAVAILABLE,
                        ErrorCode.REPLICATION_UNAVAILABLE, ErrorCode.VERSION_NOT_YET_APPLIED, ErrorCode.STORAGE_FULL);
            }
        }
    }

    @Test
    void codesOfSpringStatuses_mapBackToTheSameStatus() {
        for (HttpStatus status : new HttpStatus[]{HttpStatus.UNAUTHORIZED, HttpStatus.NOT_FOUND, HttpStatus.CONTENT_TOO_LARGE,
                HttpStatus.TOO_MANY_REQUESTS,
                HttpStatus.SERVICE_UNAVAILABLE, HttpStatus.BAD_REQUEST, HttpStatus.INTERNAL_SERVER_ERROR}) {
            assertThat(ProblemStatus.of(ProblemStatus.codeOf(status))).as(status.toString()).isEqualTo(status);
        }
        assertThat(Arrays.stream(ErrorCode.values()).map(ProblemStatus::of).distinct()).hasSize(10);
    }
}
