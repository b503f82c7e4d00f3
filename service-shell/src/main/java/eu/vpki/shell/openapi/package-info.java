/**
 * The shell's part of the OpenAPI description a service generates from its controllers with
 * springdoc (RCA admin API, Operator API): the one problem shape and the problem responses of every
 * operation ({@link eu.vpki.shell.openapi.ProblemResponses}), and the bearer-token security of the
 * {@link eu.vpki.shell.security.BearerApi} paths; and the check that an operation answers only the
 * problems its description lists ({@link eu.vpki.shell.openapi.UndeclaredProblems}). Services without
 * springdoc are unaffected.
 */
package eu.vpki.shell.openapi;
