/**
 * The project-wide error type: {@link eu.vpki.common.error.ErrorCode} with stable codes and their
 * TS 102 941 response codes, thrown as {@link eu.vpki.common.error.PkiException}; the one mapper of a
 * failure to the ETSI refusal of its request path, {@link eu.vpki.common.error.EtsiRefusal}.
 */
package eu.vpki.common.error;
