package eu.vpki.shell.openapi;

import eu.vpki.common.error.ErrorCode;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The errors a REST operation answers as RFC 7807 problems, beyond those the shell adds itself (an
 * unreadable or wrongly typed body, a refused bearer token, an internal error). On a controller
 * method, or on the controller for all its methods; {@link ApiDocumentation} turns each into a
 * response of the status {@link eu.vpki.shell.problem.ProblemStatus#of} gives it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface ProblemResponses {
    /** The stable codes of the problems the operation may answer. */
    ErrorCode[] value();
}
