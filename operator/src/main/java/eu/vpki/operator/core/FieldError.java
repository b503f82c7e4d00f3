package eu.vpki.operator.core;

import eu.vpki.common.error.ErrorCode;

/** One invalid input field, named by its JSON path (e.g. {@code stations[3].publicKey}). */
public record FieldError(String field, ErrorCode code, String detail) {
}
