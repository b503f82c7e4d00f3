package eu.vpki.operator.web;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OperatorCredentialsTest {
    private static final String LINE_1 = OperatorCredentials.line("op-1", "secret-1");
    private final OperatorCredentials credentials = OperatorCredentials.parse(List.of(
            "# operators", "", LINE_1, OperatorCredentials.line("op:2", "secret-2")));

    @Test
    void token_authenticatesItsOperator_againAndAgain() {
        assertThat(credentials.authenticate("secret-1")).contains("op-1");
        assertThat(credentials.authenticate("secret-2")).contains("op:2");
        assertThat(credentials.authenticate("secret-1")).contains("op-1");
        assertThat(credentials.size()).isEqualTo(2);
    }

    @Test
    void unknownOrMissingToken_authenticatesNobody() {
        assertThat(credentials.authenticate("secret-3")).isEmpty();
        assertThat(credentials.authenticate("secret-1 ")).isEmpty();
        assertThat(credentials.authenticate("")).isEmpty();
        assertThat(credentials.authenticate(null)).isEmpty();
    }

    @Test
    void lines_areSaltedBcrypt_ofTheTokensSha256_neverTheTokenOrItsPlainHash() {
        String again = OperatorCredentials.line("op-1", "secret-1");
        assertThat(LINE_1).startsWith("op-1:{bcrypt}$2a$10$").isNotEqualTo(again).doesNotContain("secret-1", sha256Hex("secret-1"));
    }

    @Test
    void argon2Lines_areAcceptedToo() {
        String argon2 = "op-9:{argon2@SpringSecurity_v5_8}"
                + Argon2PasswordEncoder.defaultsForSpringSecurity_v5_8().encode(sha256Hex("s9"));
        assertThat(OperatorCredentials.parse(List.of(argon2)).authenticate("s9")).contains("op-9");
    }

    @Test
    void oldUnsaltedLine_failsNamingTheMigration() {
        assertThatThrownBy(() -> OperatorCredentials.parse(List.of(LINE_1, "op-2:" + sha256Hex("x"))))
                .isInstanceOfSatisfying(PkiException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                    assertThat(e.getMessage()).contains("line 2", "migrate-credentials");
                });
    }

    @Test
    void malformedOrFastHashLine_failsNamingTheLine() {
        for (String bad : new String[]{"op-2:nothex", "op-2:{noop}secret", "op-2:{SHA-256}" + sha256Hex("x"), "op-2:{bcrypt}$2a$10$short",
                "op 2:" + OperatorCredentials.line("x", "y").substring(2), "op-2"}) {
            assertThatThrownBy(() -> OperatorCredentials.parse(List.of(LINE_1, bad))).as(bad)
                    .isInstanceOfSatisfying(PkiException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                        assertThat(e.getMessage()).contains("line 2");
                    });
        }
    }

    @Test
    void operatorListedTwice_isRefused() {
        assertThatThrownBy(() -> OperatorCredentials.parse(List.of(LINE_1, OperatorCredentials.line("op-1", "y"))))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DUPLICATE_ID));
    }

    static String sha256Hex(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
