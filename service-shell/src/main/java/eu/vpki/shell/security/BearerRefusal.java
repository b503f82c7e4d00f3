package eu.vpki.shell.security;

import eu.vpki.common.error.ErrorCode;
import org.springframework.security.core.AuthenticationException;

/** A bearer token refused, with the code the problem carries ({@code UNAUTHENTICATED} or {@code API_DISABLED}). */
final class BearerRefusal extends AuthenticationException {
    private final ErrorCode code;

    BearerRefusal(ErrorCode code, String detail) {
        super(detail);
        this.code = code;
    }

    ErrorCode code() {
        return code;
    }
}
