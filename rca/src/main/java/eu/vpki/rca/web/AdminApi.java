package eu.vpki.rca.web;

import eu.vpki.rca.core.AdminToken;
import eu.vpki.shell.security.BearerApi;
import eu.vpki.shell.security.BearerTokens;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;
import java.util.Optional;

/**
 * The admin API ({@code /admin/**}) is a bearer-token API of the service shell: every call needs the
 * admin token ({@link AdminToken}), checked before the body is read; without a configured token the
 * API answers 403 {@code API_DISABLED}.
 */
@Configuration(proxyBeanMethods = false)
public class AdminApi {
    public static final String PATHS = "/admin/**";

    @Bean
    BearerApi rcaAdminApi(AdminToken token) {
        return new BearerApi("rca-admin", List.of("/admin", PATHS), new BearerTokens() {
            @Override
            public Optional<String> principalOf(String presented) {
                return token.principalOf(presented);
            }

            @Override
            public boolean enabled() {
                return token.enabled();
            }
        });
    }
}
