package eu.vpki.operator.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OperatorCredentialsTest {
    private final OperatorCredentials credentials = OperatorCredentials.parse(List.of(
            "# operators", "", "op-1:" + OperatorCredentials.hashOf("secret-1"), "op-2:" + OperatorCredentials.hashOf("secret-2")));

    @Test
    void token_authenticatesItsOperator() {
        assertThat(credentials.authenticate("secret-1")).contains("op-1");
        assertThat(credentials.authenticate("secret-2")).contains("op-2");
        assertThat(credentials.size()).isEqualTo(2);
    }

    @Test
    void unknownOrMissingToken_authenticatesNobody() {
        assertThat(credentials.authenticate("secret-3")).isEmpty();
        assertThat(credentials.authenticate("")).isEmpty();
        assertThat(credentials.authenticate(null)).isEmpty();
    }

    @Test
    void malformedLine_failsNamingTheLine() {
        assertThatThrownBy(() -> OperatorCredentials.parse(List.of("op-1:" + OperatorCredentials.hashOf("x"), "op-2:nothex")))
                .isInstanceOfSatisfying(PkiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                    assertThat(e.getMessage()).contains("line 2");
                });
    }

    @Test
    void operatorListedTwice_isRefused() {
        assertThatThrownBy(() -> OperatorCredentials.parse(List.of("op-1:" + OperatorCredentials.hashOf("x"), "op-1:" + OperatorCredentials.hashOf("y"))))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DUPLICATE_ID));
    }
}
