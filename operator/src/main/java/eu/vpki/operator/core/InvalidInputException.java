package eu.vpki.operator.core;

import eu.vpki.common.error.PkiException;

import java.util.List;

/** A rejected input: the first field's code is the exception's code; every invalid field is listed. */
public final class InvalidInputException extends PkiException {
    private final List<FieldError> errors;

    public InvalidInputException(List<FieldError> errors) {
        super(errors.get(0).code(), errors.size() == 1 ? errors.get(0).field() + ": " + errors.get(0).detail()
                : errors.size() + " invalid fields, first " + errors.get(0).field() + ": " + errors.get(0).detail());
        this.errors = List.copyOf(errors);
    }

    public static InvalidInputException of(String field, eu.vpki.common.error.ErrorCode code, String detail) {
        return new InvalidInputException(List.of(new FieldError(field, code, detail)));
    }

    public List<FieldError> errors() {
        return errors;
    }
}
