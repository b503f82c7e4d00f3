package eu.vpki.terraform.hcl;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Syntax tree of HCL2 native syntax, as the checks read it: bodies of attributes and blocks, and expressions
 * with references kept as syntax. {@link HclReader} builds it from rewrite-hcl's tree.
 */
public final class Ast {

    private Ast() {
    }

    /** Where a node starts, for messages. */
    public record Pos(Path file, int line) {
        @Override
        public String toString() {
            return (file == null ? "<input>" : file.getFileName().toString()) + ":" + line;
        }
    }

    public record Body(List<Attribute> attributes, List<Block> blocks) {
        public Optional<Attribute> attribute(String name) {
            return attributes.stream().filter(a -> a.name().equals(name)).findFirst();
        }

        public Optional<Expr> expr(String name) {
            return attribute(name).map(Attribute::value);
        }

        public List<Block> blocks(String type) {
            return blocks.stream().filter(b -> b.type().equals(type)).toList();
        }
    }

    public record Attribute(String name, Expr value, Pos pos) {
    }

    public record Block(String type, List<String> labels, Body body, Pos pos) {
        public String label(int i) {
            return labels.get(i);
        }
    }

    /** An expression. */
    public sealed interface Expr permits Literal, Template, ScopeTraversal, RelativeTraversal, FunctionCall,
            Tuple, ObjectCons, ForExpr, Conditional, BinaryOp, UnaryOp, Splat, Parens {
        Pos pos();
    }

    /** A string, a number (as {@link java.math.BigDecimal}), a boolean or null. */
    public record Literal(Object value, Pos pos) implements Expr {
    }

    /** A quoted string, heredoc or template file: literal text and interpolations. */
    public record Template(List<TemplatePart> parts, Pos pos) implements Expr {
        /** The expression of a template that is exactly one interpolation ("${x}"), which HCL unwraps. */
        public Optional<Expr> unwrapped() {
            return parts.size() == 1 && parts.get(0) instanceof Interpolation i ? Optional.of(i.expr()) : Optional.empty();
        }

        /** The text of a template without interpolations. */
        public Optional<String> constant() {
            StringBuilder sb = new StringBuilder();
            for (TemplatePart p : parts) {
                if (!(p instanceof LiteralText t)) {
                    return Optional.empty();
                }
                sb.append(t.text());
            }
            return Optional.of(sb.toString());
        }
    }

    public sealed interface TemplatePart permits LiteralText, Interpolation {
    }

    public record LiteralText(String text) implements TemplatePart {
    }

    public record Interpolation(Expr expr) implements TemplatePart {
    }

    /** A step of a traversal: {@code .name} or {@code [key]}. */
    public sealed interface Step permits GetAttr, Index {
    }

    public record GetAttr(String name) implements Step {
    }

    public record Index(Expr key) implements Step {
    }

    /** A name followed by steps: {@code var.x}, {@code aws_vpc.this.id}, {@code each.value["k"]}. */
    public record ScopeTraversal(String root, List<Step> steps, Pos pos) implements Expr {
    }

    /** Steps applied to another expression: {@code f(x)[0]}, {@code (a).b}. */
    public record RelativeTraversal(Expr source, List<Step> steps, Pos pos) implements Expr {
    }

    /** {@code f(a, b)}; a final {@code ...} (expand the last argument) is not recorded. */
    public record FunctionCall(String name, List<Expr> args, Pos pos) implements Expr {
    }

    public record Tuple(List<Expr> items, Pos pos) implements Expr {
    }

    public record ObjectItem(Expr key, Expr value) {
        /** The key as a string when it is a bare name or a constant string. */
        public Optional<String> constantKey() {
            if (key instanceof Literal l && l.value() instanceof String s) {
                return Optional.of(s);
            }
            if (key instanceof Template t) {
                return t.constant();
            }
            return Optional.empty();
        }
    }

    public record ObjectCons(List<ObjectItem> items, Pos pos) implements Expr {
    }

    /** {@code [for k, v in c : v if cond]} (keyExpr null) or {@code {for k, v in c : k => v...}}. */
    public record ForExpr(String keyVar, String valueVar, Expr collection, Expr keyExpr, Expr valueExpr,
                          boolean grouping, Expr condition, Pos pos)
            implements
                Expr {
    }

    public record Conditional(Expr condition, Expr then, Expr otherwise, Pos pos) implements Expr {
    }

    public record BinaryOp(String op, Expr left, Expr right, Pos pos) implements Expr {
    }

    public record UnaryOp(String op, Expr operand, Pos pos) implements Expr {
    }

    /** {@code source[*].a.b} or {@code source.*.a}: the steps apply to every element. */
    public record Splat(Expr source, List<Step> eachSteps, Pos pos) implements Expr {
    }

    public record Parens(Expr inner, Pos pos) implements Expr {
    }
}
