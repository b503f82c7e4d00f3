package eu.vpki.common.error;

import java.util.List;

/**
 * A rejected input of a REST API: the first field's code is the exception's code; every invalid field
 * is listed (the service shell lists them as {@code errors} in the RFC 7807 problem).
 */
public final class InvalidInputException extends PkiException {
    private final List<FieldError> errors;

    public InvalidInputException(List<FieldError> errors) {
        super(errors.get(0).code(), errors.size() == 1
                ? errors.get(0).field() + ": " + errors.get(0).detail()
                : errors.size() + " invalid fields, first " + errors.get(0).field() + ": " + errors.get(0).detail());
        this.errors = List.copyOf(errors);
    }

    public static InvalidInputException of(String field, ErrorCode code, String detail) {
        return new InvalidInputException(List.of(new FieldError(field, code, detail)));
    }

    public List<FieldError> errors() {
        return errors;
    }
}
