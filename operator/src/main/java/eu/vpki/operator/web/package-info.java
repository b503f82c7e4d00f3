/**
 * Operator REST API (JSON, described by {@code /openapi.yaml}): thin controllers, bearer
 * authentication against the operator credentials; errors become RFC 7807 problems in the service
 * shell ({@link eu.vpki.shell.problem.ProblemAdvice}).
 */
package eu.vpki.operator.web;
