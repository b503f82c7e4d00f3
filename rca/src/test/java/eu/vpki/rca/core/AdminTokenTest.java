package eu.vpki.rca.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdminTokenTest {
    @Test
    void noTokenConfigured_disablesTheApi() {
        AdminToken token = AdminToken.load(null, Map.of());
        assertThat(token.enabled()).isFalse();
        assertThatThrownBy(() -> token.authenticate("Bearer anything-at-all-123")).isInstanceOfSatisfying(PkiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.API_DISABLED));
    }

    @Test
    void tokenFromFile_winsOverEnvironmentAndIsCheckedExactly(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("token"), "file-token-0123456789\nignored second line\n");
        AdminToken token = AdminToken.load(file, Map.of(AdminToken.ENV, "env-token-0123456789"));
        assertThatCode(() -> token.authenticate("Bearer file-token-0123456789")).doesNotThrowAnyException();
        assertThatCode(() -> token.authenticate("bearer file-token-0123456789")).doesNotThrowAnyException();
        for (String bad : new String[]{null, "", "Bearer env-token-0123456789", "Bearer file-token-012345678", "Basic abc",
                "file-token-0123456789"}) {
            assertThatThrownBy(() -> token.authenticate(bad)).isInstanceOfSatisfying(PkiException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAUTHENTICATED));
        }
    }

    @Test
    void tokenFromEnvironment_andTooShortTokensRefused() {
        AdminToken token = AdminToken.load(null, Map.of(AdminToken.ENV, "env-token-0123456789"));
        assertThatCode(() -> token.authenticate("Bearer env-token-0123456789")).doesNotThrowAnyException();
        assertThatThrownBy(() -> AdminToken.load(null, Map.of(AdminToken.ENV, "short"))).isInstanceOf(PkiException.class);
    }
}
