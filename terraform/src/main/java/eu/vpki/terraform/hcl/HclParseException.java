package eu.vpki.terraform.hcl;

/** The input is not HCL2 native syntax as far as this parser understands it. */
public final class HclParseException extends RuntimeException {

    public HclParseException(Ast.Pos pos, String message) {
        super(pos + ": " + message);
    }
}
