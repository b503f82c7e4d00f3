package eu.vpki.shell.keys;

import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Token;
import eu.vpki.common.etsi.crypto.pkcs11.TokenHealth;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * UP while the authority's keys in the PKCS#11 token sign (verified) and agree (checked against
 * software) as they should; DOWN when the token is gone, refuses or answers wrongly: such an authority
 * issues nothing and must be taken out of rotation.
 */
public final class Pkcs11HealthIndicator implements HealthIndicator {
    private final Pkcs11Token token;

    public Pkcs11HealthIndicator(Pkcs11Token token) {
        this.token = token;
    }

    @Override
    public Health health() {
        TokenHealth h = token.check();
        return (h.up() ? Health.up() : Health.down()).withDetail("token", token.toString())
                .withDetail("detail", h.detail()).withDetail("since", h.since().toString()).build();
    }
}
