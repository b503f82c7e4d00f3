package eu.vpki.shell.security;

import org.springframework.security.authentication.AbstractAuthenticationToken;

import java.util.List;

/**
 * A bearer token on its way through Spring Security: first presented (the token, not authenticated),
 * then accepted (the principal, the token dropped).
 */
final class BearerAuthentication extends AbstractAuthenticationToken {
    private final transient String token;
    private final String principal;

    private BearerAuthentication(String token, String principal) {
        super(List.of());
        this.token = token;
        this.principal = principal;
        super.setAuthenticated(principal != null);
    }

    static BearerAuthentication presented(String token) {
        return new BearerAuthentication(token, null);
    }

    static BearerAuthentication accepted(String principal) {
        return new BearerAuthentication(null, principal);
    }

    String token() {
        return token;
    }

    @Override
    public Object getCredentials() {
        return token;
    }

    @Override
    public Object getPrincipal() {
        return principal;
    }

    @Override
    public String getName() {
        return principal == null ? "" : principal;
    }

    @Override
    public void setAuthenticated(boolean authenticated) {
        if (authenticated) {
            throw new IllegalArgumentException("only accepted() makes an authenticated bearer token");
        }
        super.setAuthenticated(false);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BearerAuthentication b && super.equals(b);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }
}
