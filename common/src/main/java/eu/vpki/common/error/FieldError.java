package eu.vpki.common.error;

/** One invalid input field, named by its JSON path (e.g. {@code stations[3].publicKey}), with its own code. */
public record FieldError(String field, ErrorCode code, String detail) {
}
