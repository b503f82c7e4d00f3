/**
 * Operator REST API (JSON, described by {@code /openapi.yaml}): thin controllers, bearer
 * authentication against the operator credentials ({@link eu.vpki.operator.web.OperatorCredentials}:
 * salted slow hashes through Spring Security's password encoders); errors become RFC 7807 problems in the service
 * shell ({@link eu.vpki.shell.problem.ProblemAdvice}).
 */
package eu.vpki.operator.web;
