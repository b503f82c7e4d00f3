package eu.vpki.terraform.hcl;

import eu.vpki.terraform.hcl.Ast.Attribute;
import eu.vpki.terraform.hcl.Ast.BinaryOp;
import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Body;
import eu.vpki.terraform.hcl.Ast.Conditional;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.ForExpr;
import eu.vpki.terraform.hcl.Ast.FunctionCall;
import eu.vpki.terraform.hcl.Ast.GetAttr;
import eu.vpki.terraform.hcl.Ast.Index;
import eu.vpki.terraform.hcl.Ast.Interpolation;
import eu.vpki.terraform.hcl.Ast.Literal;
import eu.vpki.terraform.hcl.Ast.LiteralText;
import eu.vpki.terraform.hcl.Ast.ObjectCons;
import eu.vpki.terraform.hcl.Ast.ObjectItem;
import eu.vpki.terraform.hcl.Ast.Parens;
import eu.vpki.terraform.hcl.Ast.Pos;
import eu.vpki.terraform.hcl.Ast.RelativeTraversal;
import eu.vpki.terraform.hcl.Ast.ScopeTraversal;
import eu.vpki.terraform.hcl.Ast.Splat;
import eu.vpki.terraform.hcl.Ast.Step;
import eu.vpki.terraform.hcl.Ast.Template;
import eu.vpki.terraform.hcl.Ast.TemplatePart;
import eu.vpki.terraform.hcl.Ast.Tuple;
import eu.vpki.terraform.hcl.Ast.UnaryOp;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.PrintOutputCapture;
import org.openrewrite.SourceFile;
import org.openrewrite.Tree;
import org.openrewrite.hcl.HclParser;
import org.openrewrite.hcl.internal.HclPrinter;
import org.openrewrite.hcl.tree.BodyContent;
import org.openrewrite.hcl.tree.Expression;
import org.openrewrite.hcl.tree.Hcl;
import org.openrewrite.hcl.tree.Label;
import org.openrewrite.hcl.tree.Space;
import org.openrewrite.tree.ParseError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads HCL2 native syntax with OpenRewrite's rewrite-hcl (a maintained ANTLR grammar with a lossless tree)
 * and converts its tree into {@link Ast}, keeping references as syntax and each node's line.
 *
 * <p>It refuses, as {@link HclParseException}, whatever rewrite-hcl reports as a syntax error, a tree that
 * does not print back to the input byte for byte (something was dropped), text that rewrite-hcl kept as
 * white space (its grammar stops at a body item it cannot match, {@code = 1}, and keeps the rest of the
 * file as the white space before the end), and two body items on one line ({@code a = 1 b = 2}), which
 * rewrite-hcl accepts and Terraform does not. Heredocs are read as HCL defines them (docs/deployment.md,
 * "Reading the HCL"): each line with its line break, the flush form's indentation removed. A template file is read as the
 * body of a heredoc: rewrite-hcl has no template directives ({@code %{ if }}, {@code %{ for }}), so a
 * template using them is refused; ours have none (terraform/modules/host-config composes the user data).
 */
public final class HclReader {

    /** Encloses a template file's text; no line of a template may be exactly this. */
    private static final String TEMPLATE_DELIMITER = "VPKI_TEMPLATE_FILE";

    private static final Pattern TRAILING_COMMA = Pattern.compile("\\s*,");
    private static final Pattern EXPANSION_AND_TRAILING_COMMA = Pattern.compile("\\s*(\\.\\.\\.)?\\s*,?");
    private static final Pattern NOTHING = Pattern.compile("");

    private final Path file;
    private final int lineOffset;
    private final Map<Tree, Integer> lines = new IdentityHashMap<>();
    /** Nodes whose whitespace and comments before them hold a line break. */
    private final Set<Tree> startsLine = Collections.newSetFromMap(new IdentityHashMap<>());

    private HclReader(Path file, int lineOffset) {
        this.file = file;
        this.lineOffset = lineOffset;
    }

    /** Reads a configuration file (.tf or .tfvars). */
    public static Body readFile(Path file) {
        return read(text(file), file);
    }

    public static Body read(String text, Path file) {
        HclReader r = new HclReader(file, 0);
        return r.body(r.parse(text).getBody());
    }

    /** Reads a template file (.tftpl): literal text with interpolations, no directives. */
    public static Template readTemplateFile(Path file) {
        return readTemplate(text(file), file);
    }

    public static Template readTemplate(String text, Path file) {
        if (text.lines().anyMatch(TEMPLATE_DELIMITER::equals)) {
            throw new HclParseException(new Pos(file, 1), "a line of the template is " + TEMPLATE_DELIMITER);
        }
        HclReader r = new HclReader(file, -1);
        String wrapped = "t = <<" + TEMPLATE_DELIMITER + "\n" + text + (text.endsWith("\n") ? "" : "\n")
                + TEMPLATE_DELIMITER + "\n";
        Hcl.Attribute a = (Hcl.Attribute) r.parse(wrapped).getBody().get(0);
        Hcl.HeredocTemplate heredoc = (Hcl.HeredocTemplate) a.getValue();
        return new Template(r.heredocParts(heredoc), new Pos(file, 1));
    }

    private static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Hcl.ConfigFile parse(String text) {
        List<Throwable> errors = new ArrayList<>();
        SourceFile sf = HclParser.builder().build().parse(new InMemoryExecutionContext(errors::add), text)
                .findFirst().orElse(null);
        if (!errors.isEmpty() || !(sf instanceof Hcl.ConfigFile cf) || sf instanceof ParseError) {
            String why = errors.isEmpty() ? "not HCL" : String.valueOf(errors.get(0).getMessage());
            throw new HclParseException(new Pos(file, 1), why.lines().findFirst().orElse(why)
                    + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : ""));
        }
        int[] strayLine = {0};
        String printed = recordLines(cf, strayLine);
        if (!printed.equals(text)) {
            throw new HclParseException(new Pos(file, 1), "rewrite-hcl does not print the file back unchanged");
        }
        if (strayLine[0] > 0) {
            // rewrite-hcl stops where its grammar stops matching and keeps the rest as white space: "a = 1\n= 2\n"
            throw new HclParseException(new Pos(file, strayLine[0] + lineOffset), "text that is not HCL");
        }
        return cf;
    }

    /**
     * Prints the tree, recording the line each node starts on (after its whitespace and comments), and in
     * {@code strayLine[0]} the line of the first text that rewrite-hcl kept as white space.
     */
    private String recordLines(Hcl.ConfigFile cf, int[] strayLine) {
        PrintOutputCapture<Integer> out = new PrintOutputCapture<>(0);
        new HclPrinter<Integer>() {
            private Tree pending;

            @Override
            public Hcl visit(Tree tree, PrintOutputCapture<Integer> p) {
                pending = tree;
                return super.visit(tree, p);
            }

            @Override
            public Space visitSpace(Space space, Space.Location loc, PrintOutputCapture<Integer> p) {
                int before = p.getOut().length();
                int stray = strayText(space, loc);
                if (strayLine[0] == 0 && stray >= 0) {
                    strayLine[0] = 1 + stray + (int) p.getOut().chars().filter(c -> c == '\n').count();
                }
                Space s = super.visitSpace(space, loc, p);
                if (pending != null) {
                    lines.put(pending, 1 + (int) p.getOut().chars().filter(c -> c == '\n').count());
                    if (p.getOut().indexOf("\n", before) >= 0) {
                        startsLine.add(pending);
                    }
                    pending = null;
                }
                return s;
            }
        }.visit(cf, out);
        return out.getOut();
    }

    /**
     * The line, counted from 0 at the space's start, of its first text outside comments that is not white space,
     * -1 if none. rewrite-hcl keeps two tokens there on purpose: a trailing comma after the last element of a
     * tuple or argument list, and the {@code ...} that expands the last argument.
     */
    private static int strayText(Space space, Space.Location loc) {
        String gap = space.getWhitespace();
        Matcher kept = (loc == Space.Location.TUPLE_VALUE_SUFFIX
                ? TRAILING_COMMA
                : loc == Space.Location.FUNCTION_CALL_ARGUMENT_SUFFIX ? EXPANSION_AND_TRAILING_COMMA : NOTHING).matcher(gap);
        int from = kept.lookingAt() ? kept.end() : 0;
        int newlines = (int) gap.substring(0, from).chars().filter(ch -> ch == '\n').count();
        for (int c = 0;; c++, from = 0) {
            for (int i = from; i < gap.length(); i++) {
                if (!Character.isWhitespace(gap.charAt(i))) {
                    return newlines;
                }
                newlines += gap.charAt(i) == '\n' ? 1 : 0;
            }
            if (c == space.getComments().size()) {
                return -1;
            }
            newlines += (int) space.getComments().get(c).getText().chars().filter(ch -> ch == '\n').count();
            gap = space.getComments().get(c).getSuffix();
        }
    }

    private Pos pos(Tree t) {
        return new Pos(file, lines.getOrDefault(t, 1 - lineOffset) + lineOffset);
    }

    private Body body(List<BodyContent> contents) {
        List<Attribute> attributes = new ArrayList<>();
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < contents.size(); i++) {
            BodyContent c = contents.get(i);
            if (i > 0 && !startsLine.contains(c)) {
                throw new HclParseException(pos((Hcl) c), "two items on one line (a newline must end each attribute and block)");
            }
            if (c instanceof Hcl.Attribute a) {
                attributes.add(new Attribute(name(a.getName()), expr(a.getValue()), pos(a)));
            } else if (c instanceof Hcl.Block b) {
                List<String> labels = new ArrayList<>();
                for (Label l : b.getLabels()) {
                    labels.add(l instanceof Hcl.Identifier id ? id.getName() : String.valueOf(((Hcl.Literal) l).getValue()));
                }
                blocks.add(new Block(b.getType().getName(), labels, body(b.getBody()), pos(b)));
            } else {
                throw new HclParseException(pos((Hcl) c), "unexpected " + c.getClass().getSimpleName() + " in a body");
            }
        }
        return new Body(attributes, blocks);
    }

    private String name(Expression e) {
        if (e instanceof Hcl.Identifier id) {
            return id.getName();
        }
        throw new HclParseException(pos(e), "an attribute name must be an identifier");
    }

    private Expr expr(Expression e) {
        Pos p = pos(e);
        if (e instanceof Hcl.Literal l) {
            return literal(l, p);
        }
        if (e instanceof Hcl.QuotedTemplate q) {
            return new Template(quotedParts(q.getExpressions()), p);
        }
        if (e instanceof Hcl.HeredocTemplate h) {
            return new Template(heredocParts(h), p);
        }
        if (e instanceof Hcl.Identifier || e instanceof Hcl.VariableExpression || e instanceof Hcl.AttributeAccess
                || e instanceof Hcl.Index || e instanceof Hcl.LegacyIndexAttributeAccess || e instanceof Hcl.Splat) {
            return traversal(e);
        }
        if (e instanceof Hcl.FunctionCall f) {
            return new FunctionCall(f.getName().getName(), exprs(f.getVariables()), p);
        }
        if (e instanceof Hcl.Tuple t) {
            return new Tuple(exprs(t.getValues()), p);
        }
        if (e instanceof Hcl.ObjectValue o) {
            List<ObjectItem> items = new ArrayList<>();
            for (Expression item : o.getAttributes()) {
                if (item instanceof Hcl.Attribute a) {
                    items.add(new ObjectItem(objectKey(a.getName()), expr(a.getValue())));
                } else if (!(item instanceof Hcl.Empty)) {
                    throw new HclParseException(pos(item), "unexpected " + item.getClass().getSimpleName() + " in an object");
                }
            }
            return new ObjectCons(items, p);
        }
        if (e instanceof Hcl.ForTuple f) {
            return forExpr(f.getIntro(), null, f.getUpdateName(), false, f.getCondition(), p);
        }
        if (e instanceof Hcl.ForObject f) {
            return forExpr(f.getIntro(), f.getUpdateName(), f.getUpdateValue(), f.getEllipsis() != null, f.getCondition(), p);
        }
        if (e instanceof Hcl.Conditional c) {
            return new Conditional(expr(c.getCondition()), expr(c.getTruePart()), expr(c.getFalsePart()), p);
        }
        if (e instanceof Hcl.Binary b) {
            // rewrite-hcl does not apply HCL's operator precedence; the checks treat every operator alike
            return new BinaryOp(b.getOperator().name(), expr(b.getLeft()), expr(b.getRight()), p);
        }
        if (e instanceof Hcl.Unary u) {
            return new UnaryOp(u.getOperator().name(), expr(u.getExpression()), p);
        }
        if (e instanceof Hcl.Parentheses par) {
            return new Parens(expr(par.getExpression()), p);
        }
        throw new HclParseException(p, "unexpected " + e.getClass().getSimpleName() + " in an expression");
    }

    /** The elements of a tuple or argument list; rewrite-hcl marks an empty one with Empty. */
    private List<Expr> exprs(List<Expression> elements) {
        return elements.stream().filter(e -> !(e instanceof Hcl.Empty)).map(this::expr).toList();
    }

    private Literal literal(Hcl.Literal l, Pos p) {
        Object v = l.getValue();
        if (v instanceof Number) {
            return new Literal(new BigDecimal(l.getValueSource()), p);
        }
        return new Literal(v, p);
    }

    private Expr objectKey(Expression key) {
        if (key instanceof Hcl.Identifier id) {
            return new Literal(id.getName(), pos(key));
        }
        if (key instanceof Hcl.VariableExpression v) {
            return new Literal(v.getName().getName(), pos(key));
        }
        return expr(key);
    }

    private ForExpr forExpr(Hcl.ForIntro intro, Expression key, Expression value, boolean grouping, Expression condition,
                            Pos p) {
        List<Hcl.Identifier> vars = intro.getVariables();
        String keyVar = vars.size() == 2 ? vars.get(0).getName() : null;
        String valueVar = vars.get(vars.size() - 1).getName();
        return new ForExpr(keyVar, valueVar, expr(intro.getIn()), key == null ? null : expr(key), expr(value),
                grouping, condition == null ? null : expr(condition), p);
    }

    /** A chain of attribute accesses and indexes, from the outside in, as one traversal. */
    private Expr traversal(Expression e) {
        Pos p = pos(e);
        List<Step> steps = new ArrayList<>();
        Expression base = e;
        while (true) {
            if (base instanceof Hcl.AttributeAccess a) {
                steps.add(0, new GetAttr(a.getType().getName()));
                base = a.getAttribute();
            } else if (base instanceof Hcl.Index i) {
                steps.add(0, new Index(expr(i.getPosition().getPosition())));
                base = i.getIndexed();
            } else if (base instanceof Hcl.LegacyIndexAttributeAccess l) {
                steps.add(0, new Index(literal(l.getIndex(), pos(l.getIndex()))));
                base = l.getBase().getElement();
            } else {
                break;
            }
        }
        if (base instanceof Hcl.VariableExpression v) {
            return new ScopeTraversal(v.getName().getName(), List.copyOf(steps), p);
        }
        if (base instanceof Hcl.Identifier id) {
            // inside parentheses rewrite-hcl gives a variable as a bare identifier: (local.c) = 3, (c) = 4
            return new ScopeTraversal(id.getName(), List.copyOf(steps), p);
        }
        if (base instanceof Hcl.Splat s) {
            // a[*].b.c: the steps after the splat apply to every element
            return new Splat(expr(s.getSelect()), List.copyOf(steps), p);
        }
        return steps.isEmpty() ? expr(base) : new RelativeTraversal(expr(base), List.copyOf(steps), p);
    }

    /** The parts of a quoted template (no line breaks outside interpolations). */
    private List<TemplatePart> quotedParts(List<Expression> parts) {
        List<TemplatePart> out = new ArrayList<>();
        for (Expression part : parts) {
            out.add(literalText(part.getPrefix(), part));
            out.add(templatePart(part, true));
        }
        return meld(out);
    }

    /**
     * The parts of a heredoc as HCL's native syntax defines them: the lines between the opening line and the
     * closing marker's line, each with its line break (so the content ends with one); in the flush form
     * ({@code <<-}) the smallest indentation of the lines is removed from each of them (blank lines do not
     * count, and a line that starts with an interpolation has none), as hclsyntax's flush rule does.
     *
     * <p>rewrite-hcl keeps the line breaks (and the text of blank lines) in the prefix of the part that
     * follows them, and the last line's break with the closing marker's indentation as the heredoc's end.
     */
    private List<TemplatePart> heredocParts(Hcl.HeredocTemplate h) {
        List<TemplatePart> raw = new ArrayList<>();
        for (Expression part : h.getExpressions()) {
            raw.add(literalText(part.getPrefix(), part));
            raw.add(templatePart(part, false));
        }
        LiteralText end = literalText(h.getEnd(), h);
        raw.add(new LiteralText(end.text().substring(0, end.text().lastIndexOf('\n') + 1)));
        List<TemplatePart> lines = new ArrayList<>();
        boolean opener = true;
        for (TemplatePart part : meld(raw)) {
            if (!(part instanceof LiteralText lt)) {
                lines.add(part);
                continue;
            }
            String text = lt.text();
            if (opener) {
                // the opening line's break
                if (!text.startsWith("\n")) {
                    throw new HclParseException(pos(h), "a heredoc's text must start on the line after its opening");
                }
                text = text.substring(1);
                opener = false;
            }
            // one literal per line, as HCL's lexer makes them
            for (int from = 0; from < text.length();) {
                int to = text.indexOf('\n', from);
                to = to < 0 ? text.length() : to + 1;
                lines.add(new LiteralText(text.substring(from, to)));
                from = to;
            }
        }
        return meld(h.getArrow().equals("<<-") ? flush(lines) : lines);
    }

    /** hclsyntax's flush heredoc rule on the per-line parts. */
    private static List<TemplatePart> flush(List<TemplatePart> lines) {
        int indent = Integer.MAX_VALUE;
        List<Integer> adjusted = new ArrayList<>();
        boolean lineStart = true;
        for (int i = 0; i < lines.size(); i++) {
            TemplatePart part = lines.get(i);
            if (lineStart) {
                if (!(part instanceof LiteralText lt)) {
                    indent = 0;
                } else if (!isBlankLine(lt.text())) {
                    indent = Math.min(indent, leadingSpaces(lt.text()));
                    adjusted.add(i);
                }
            }
            lineStart = part instanceof LiteralText lt && lt.text().endsWith("\n");
        }
        List<TemplatePart> out = new ArrayList<>(lines);
        for (int i : adjusted) {
            String text = ((LiteralText) out.get(i)).text();
            out.set(i, new LiteralText(text.substring(text.offsetByCodePoints(0, indent))));
        }
        return out;
    }

    private static boolean isBlankLine(String line) {
        return line.endsWith("\n") && leadingSpaces(line) == line.codePointCount(0, line.length());
    }

    /** Leading white space characters (Go's unicode.IsSpace, which HCL uses, includes the no-break spaces). */
    private static int leadingSpaces(String s) {
        return (int) s.codePoints().takeWhile(c -> Character.isWhitespace(c) || Character.isSpaceChar(c)).count();
    }

    /** The text rewrite-hcl keeps as white space before a template part: inside a template it is text. */
    private LiteralText literalText(Space space, Tree where) {
        if (!space.getComments().isEmpty()) {
            throw new HclParseException(pos(where), "a comment inside a template");
        }
        return new LiteralText(space.getWhitespace());
    }

    private TemplatePart templatePart(Expression part, boolean quoted) {
        if (part instanceof Hcl.TemplateInterpolation in) {
            return new Interpolation(expr(in.getExpression()));
        }
        if (part instanceof Hcl.Literal l) {
            return new LiteralText(unescape(String.valueOf(l.getValue()), quoted, pos(l)));
        }
        throw new HclParseException(pos(part), "unexpected " + part.getClass().getSimpleName() + " in a template");
    }

    /** Consecutive literal texts joined, empty ones dropped. */
    private static List<TemplatePart> meld(List<TemplatePart> parts) {
        List<TemplatePart> out = new ArrayList<>();
        for (TemplatePart part : parts) {
            if (part instanceof LiteralText lt) {
                if (lt.text().isEmpty()) {
                    continue;
                }
                if (!out.isEmpty() && out.get(out.size() - 1) instanceof LiteralText previous) {
                    out.set(out.size() - 1, new LiteralText(previous.text() + lt.text()));
                    continue;
                }
            }
            out.add(part);
        }
        return out;
    }

    /**
     * The text of a template literal: {@code $${} and {@code %%{} stand for {@code ${} and {@code %{}; in a
     * quoted string also the backslash escapes (rewrite-hcl keeps the source text). A {@code %{} directive
     * is refused: rewrite-hcl reads it as text.
     */
    private static String unescape(String s, boolean quoted, Pos p) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c == '$' || c == '%') && s.startsWith(c + "" + c + "{", i)) {
                out.append(c).append('{');
                i += 2;
            } else if (c == '%' && s.startsWith("%{", i)) {
                throw new HclParseException(p, "template directives (%{ ... }) are not supported: compose the text in HCL");
            } else if (quoted && c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                switch (n) {
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case '"' -> out.append('"');
                    case '\\' -> out.append('\\');
                    default -> throw new HclParseException(p, "unsupported escape \\" + n);
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
