/**
 * Operator REST API (JSON, described by {@code /openapi.yaml}): thin controllers, bearer
 * authentication against the operator credentials, and the one mapping of errors to RFC 7807
 * problems ({@link eu.vpki.operator.web.OperatorProblems}).
 */
package eu.vpki.operator.web;
