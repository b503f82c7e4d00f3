package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Pos;

/** A finding of a check: which check, where, what. */
public record Violation(String check, Pos pos, String message) {
    @Override
    public String toString() {
        return "[" + check + "] " + pos + ": " + message;
    }
}
