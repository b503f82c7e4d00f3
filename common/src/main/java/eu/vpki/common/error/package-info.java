/**
 * The project-wide error type: {@link eu.vpki.common.error.ErrorCode} with stable codes and their
 * TS 102 941 response codes, thrown as {@link eu.vpki.common.error.PkiException}.
 */
package eu.vpki.common.error;
