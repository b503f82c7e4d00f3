package eu.vpki.rca.core;

import eu.vpki.common.error.PkiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdminTokenTest {
    @Test
    void noTokenConfigured_disablesTheApi() {
        AdminToken token = AdminToken.load(null, Map.of());
        assertThat(token.enabled()).isFalse();
        assertThat(token.principalOf("anything-at-all-123")).isEmpty();
    }

    @Test
    void tokenFromFile_winsOverEnvironmentAndIsCheckedExactly(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("token"), "file-token-0123456789\nignored second line\n");
        AdminToken token = AdminToken.load(file, Map.of(AdminToken.ENV, "env-token-0123456789"));
        assertThat(token.enabled()).isTrue();
        assertThat(token.principalOf("file-token-0123456789")).contains(AdminToken.PRINCIPAL);
        for (String bad : new String[]{null, "", "env-token-0123456789", "file-token-012345678", "file-token-01234567890",
                "Bearer file-token-0123456789"}) {
            assertThat(token.principalOf(bad)).as(String.valueOf(bad)).isEmpty();
        }
    }

    @Test
    void tokenFromEnvironment_andTooShortTokensRefused() {
        AdminToken token = AdminToken.load(null, Map.of(AdminToken.ENV, "env-token-0123456789"));
        assertThat(token.principalOf("env-token-0123456789")).contains(AdminToken.PRINCIPAL);
        assertThatThrownBy(() -> AdminToken.load(null, Map.of(AdminToken.ENV, "short"))).isInstanceOf(PkiException.class);
    }
}
