/**
 * RFC 7807 problems: the one HTTP shape of every error a REST call of any service can get, with the
 * stable {@link eu.vpki.common.error.ErrorCode} and the one mapping from code to HTTP status
 * ({@link eu.vpki.shell.problem.ProblemStatus}). ETSI request paths answer ETSI responses; only what
 * cannot become one (a body that cannot be decrypted, wrong content type, too large) is a problem.
 */
package eu.vpki.shell.problem;
