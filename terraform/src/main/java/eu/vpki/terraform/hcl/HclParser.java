package eu.vpki.terraform.hcl;

import eu.vpki.terraform.hcl.Ast.Attribute;
import eu.vpki.terraform.hcl.Ast.BinaryOp;
import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Body;
import eu.vpki.terraform.hcl.Ast.Conditional;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.ForDirective;
import eu.vpki.terraform.hcl.Ast.ForExpr;
import eu.vpki.terraform.hcl.Ast.FunctionCall;
import eu.vpki.terraform.hcl.Ast.GetAttr;
import eu.vpki.terraform.hcl.Ast.IfDirective;
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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A scannerless recursive-descent parser for HCL2 native syntax: the structure of Terraform files
 * ({@code .tf}, {@code .tfvars}) and of template files ({@code .tftpl}).
 *
 * <p>It covers bodies (attributes, blocks with labels, one-line blocks), comments ({@code #}, {@code //},
 * block comments), every expression form (literals, quoted templates with escapes, interpolation,
 * directives and strip markers, heredocs, tuples, objects, for expressions, conditionals, operators with
 * HCL's precedence, function calls with {@code ...}, traversals, attribute and full splats). Newlines end
 * an attribute unless they are inside parentheses, brackets or an interpolation, as in HCL.
 * It does not evaluate anything and does not de-indent {@code <<-} heredocs (irrelevant to structure).
 */
public final class HclParser {

    private static final Set<String> BINARY_OPS_BY_LENGTH_2 = Set.of("||", "&&", "==", "!=", "<=", ">=");

    private final String src;
    private final Path file;
    private final int[] lineStarts;
    private int pos;
    /** Whether newlines are whitespace here (inside brackets, parentheses, interpolations). */
    private boolean newlinesAreSpace;

    private HclParser(String src, Path file) {
        this.src = src;
        this.file = file;
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < src.length(); i++) {
            if (src.charAt(i) == '\n') {
                starts.add(i + 1);
            }
        }
        this.lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Parses a configuration file (.tf or .tfvars). */
    public static Body parseFile(Path file) {
        return new HclParser(read(file), file).parseConfig();
    }

    public static Body parseConfig(String src) {
        return new HclParser(src, null).parseConfig();
    }

    /** Parses a template file (.tftpl): literal text with interpolations and directives. */
    public static Template parseTemplateFile(Path file) {
        return new HclParser(read(file), file).parseWholeTemplate();
    }

    public static Template parseTemplate(String src) {
        return new HclParser(src, null).parseWholeTemplate();
    }

    public static Expr parseExpression(String src) {
        HclParser p = new HclParser(src, null);
        p.newlinesAreSpace = true;
        Expr e = p.parseExpr();
        p.skipSpace(true);
        if (!p.eof()) {
            throw p.error("unexpected input after expression");
        }
        return e;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Body parseConfig() {
        Body body = parseBody(false);
        if (!eof()) {
            throw error("unexpected '}'");
        }
        return body;
    }

    private Template parseWholeTemplate() {
        Pos p = here();
        List<TemplatePart> parts = parseTemplateParts(src.length(), false);
        return new Template(parts, p);
    }

    // ---------------------------------------------------------------- bodies

    private Body parseBody(boolean braced) {
        List<Attribute> attributes = new ArrayList<>();
        List<Block> blocks = new ArrayList<>();
        while (true) {
            skipSpace(true);
            if (eof()) {
                if (braced) {
                    throw error("unclosed block: missing '}'");
                }
                break;
            }
            if (peek() == '}') {
                if (braced) {
                    pos++;
                }
                break;
            }
            Pos p = here();
            String name = identifier();
            skipSpace(false);
            if (peek() == '=' && peek(1) != '=') {
                pos++;
                boolean saved = newlinesAreSpace;
                newlinesAreSpace = false;
                Expr value = parseExpr();
                newlinesAreSpace = saved;
                attributes.add(new Attribute(name, value, p));
            } else {
                List<String> labels = new ArrayList<>();
                while (peek() == '"' || isIdentStart(peek())) {
                    if (peek() == '"') {
                        Template t = parseQuoted();
                        labels.add(t.constant().orElseThrow(() -> error("block labels cannot be templates")));
                    } else {
                        labels.add(identifier());
                    }
                    skipSpace(false);
                }
                expect('{');
                Body inner = parseBody(true);
                blocks.add(new Block(name, List.copyOf(labels), inner, p));
            }
            endOfItem();
        }
        return new Body(List.copyOf(attributes), List.copyOf(blocks));
    }

    private void endOfItem() {
        skipSpace(false);
        if (!eof() && peek() != '\n' && peek() != '}') {
            throw error("expected a newline after an attribute or block, found '" + peek() + "'");
        }
    }

    // ----------------------------------------------------------- expressions

    private Expr parseExpr() {
        Pos p = here();
        Expr condition = parseBinary(0);
        ws();
        if (peek() == '?') {
            pos++;
            Expr then = parseExpr();
            ws();
            expect(':');
            Expr otherwise = parseExpr();
            return new Conditional(condition, then, otherwise, p);
        }
        return condition;
    }

    private static final String[][] LEVELS = {
        {"||"}, {"&&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"+", "-"}, {"*", "/", "%"},
    };

    private Expr parseBinary(int level) {
        if (level == LEVELS.length) {
            return parseUnary();
        }
        Expr left = parseBinary(level + 1);
        while (true) {
            int mark = pos;
            ws();
            String op = matchOperator(LEVELS[level]);
            if (op == null) {
                pos = mark;
                return left;
            }
            Expr right = parseBinary(level + 1);
            left = new BinaryOp(op, left, right, left.pos());
        }
    }

    private String matchOperator(String[] ops) {
        for (String op : ops) {
            if (!src.startsWith(op, pos)) {
                continue;
            }
            if (op.length() == 1) {
                String two = pos + 1 < src.length() ? src.substring(pos, pos + 2) : "";
                // '<' of a heredoc, '=>' of a for expression, '-'/'*' are single-char only when not part of a 2-char op
                if (BINARY_OPS_BY_LENGTH_2.contains(two) || two.equals("=>") || two.equals("<<")) {
                    continue;
                }
            }
            pos += op.length();
            return op;
        }
        return null;
    }

    private Expr parseUnary() {
        ws();
        Pos p = here();
        if (peek() == '!' && peek(1) != '=') {
            pos++;
            return new UnaryOp("!", parseUnary(), p);
        }
        if (peek() == '-' && peek(1) != '>') {
            pos++;
            return new UnaryOp("-", parseUnary(), p);
        }
        return parsePostfix();
    }

    private Expr parsePostfix() {
        Expr primary = parsePrimary();
        List<Step> steps = new ArrayList<>();
        Expr result = primary;
        while (true) {
            if (peek() == '.' && peek(1) != '.') {
                pos++;
                if (peek() == '*') {
                    pos++;
                    result = splat(withSteps(result, steps), collectSplatSteps(false));
                    steps = new ArrayList<>();
                    continue;
                }
                if (Character.isDigit(peek())) {
                    Pos p = here();
                    steps.add(new Index(new Literal(parseNumber(), p)));
                } else {
                    steps.add(new GetAttr(identifier()));
                }
            } else if (peek() == '[') {
                int mark = pos;
                pos++;
                skipSpace(true);
                if (peek() == '*') {
                    pos++;
                    skipSpace(true);
                    expect(']');
                    result = splat(withSteps(result, steps), collectSplatSteps(true));
                    steps = new ArrayList<>();
                    continue;
                }
                pos = mark + 1;
                boolean saved = newlinesAreSpace;
                newlinesAreSpace = true;
                Expr key = parseExpr();
                ws();
                expect(']');
                newlinesAreSpace = saved;
                steps.add(new Index(key));
            } else {
                return withSteps(result, steps);
            }
        }
    }

    private List<Step> collectSplatSteps(boolean indexesToo) {
        List<Step> steps = new ArrayList<>();
        while (true) {
            if (peek() == '.' && isIdentStart(peek(1))) {
                pos++;
                steps.add(new GetAttr(identifier()));
            } else if (indexesToo && peek() == '[') {
                pos++;
                boolean saved = newlinesAreSpace;
                newlinesAreSpace = true;
                Expr key = parseExpr();
                ws();
                expect(']');
                newlinesAreSpace = saved;
                steps.add(new Index(key));
            } else {
                return steps;
            }
        }
    }

    private static Expr splat(Expr source, List<Step> each) {
        return new Splat(source, List.copyOf(each), source.pos());
    }

    private static Expr withSteps(Expr e, List<Step> steps) {
        if (steps.isEmpty()) {
            return e;
        }
        if (e instanceof ScopeTraversal t) {
            List<Step> all = new ArrayList<>(t.steps());
            all.addAll(steps);
            return new ScopeTraversal(t.root(), List.copyOf(all), t.pos());
        }
        return new RelativeTraversal(e, List.copyOf(steps), e.pos());
    }

    private Expr parsePrimary() {
        ws();
        Pos p = here();
        if (eof()) {
            throw error("expression expected, found end of input");
        }
        char c = peek();
        if (c == '(') {
            pos++;
            boolean saved = newlinesAreSpace;
            newlinesAreSpace = true;
            Expr inner = parseExpr();
            ws();
            expect(')');
            newlinesAreSpace = saved;
            return new Parens(inner, p);
        }
        if (c == '"') {
            return parseQuoted();
        }
        if (c == '<' && peek(1) == '<') {
            return parseHeredoc();
        }
        if (c == '[') {
            return parseTupleOrFor();
        }
        if (c == '{') {
            return parseObjectOrFor();
        }
        if (Character.isDigit(c)) {
            return new Literal(parseNumber(), p);
        }
        if (isIdentStart(c)) {
            String name = identifier();
            while (src.startsWith("::", pos) && isIdentStart(peek(2))) {
                pos += 2;
                name = name + "::" + identifier();
            }
            if (peek() == '(') {
                return parseCall(name, p);
            }
            return switch (name) {
                case "true" -> new Literal(Boolean.TRUE, p);
                case "false" -> new Literal(Boolean.FALSE, p);
                case "null" -> new Literal(null, p);
                default -> new ScopeTraversal(name, List.of(), p);
            };
        }
        throw error("expression expected, found '" + c + "'");
    }

    private Expr parseCall(String name, Pos p) {
        expect('(');
        boolean saved = newlinesAreSpace;
        newlinesAreSpace = true;
        List<Expr> args = new ArrayList<>();
        boolean expand = false;
        skipSpace(true);
        while (peek() != ')') {
            args.add(parseExpr());
            skipSpace(true);
            if (src.startsWith("...", pos)) {
                pos += 3;
                expand = true;
                skipSpace(true);
            }
            if (peek() == ',') {
                pos++;
                skipSpace(true);
            } else if (peek() != ')') {
                throw error("expected ',' or ')' in the arguments of " + name);
            }
        }
        pos++;
        newlinesAreSpace = saved;
        return new FunctionCall(name, List.copyOf(args), expand, p);
    }

    private Expr parseTupleOrFor() {
        Pos p = here();
        expect('[');
        boolean saved = newlinesAreSpace;
        newlinesAreSpace = true;
        skipSpace(true);
        if (atKeyword("for")) {
            Expr e = parseFor(p, false);
            newlinesAreSpace = saved;
            return e;
        }
        List<Expr> items = new ArrayList<>();
        while (peek() != ']') {
            items.add(parseExpr());
            skipSpace(true);
            if (peek() == ',') {
                pos++;
                skipSpace(true);
            } else if (peek() != ']') {
                throw error("expected ',' or ']' in a tuple");
            }
        }
        pos++;
        newlinesAreSpace = saved;
        return new Tuple(List.copyOf(items), p);
    }

    private Expr parseObjectOrFor() {
        Pos p = here();
        expect('{');
        boolean saved = newlinesAreSpace;
        skipSpace(true);
        if (atKeyword("for")) {
            newlinesAreSpace = true;
            Expr e = parseFor(p, true);
            newlinesAreSpace = saved;
            return e;
        }
        List<ObjectItem> items = new ArrayList<>();
        while (true) {
            skipSpace(true);
            if (peek() == '}') {
                pos++;
                break;
            }
            newlinesAreSpace = false;
            Expr key = parseBinary(0);
            if (key instanceof ScopeTraversal t && t.steps().isEmpty()) {
                key = new Literal(t.root(), t.pos());
            }
            skipSpace(false);
            if (peek() == '=' && peek(1) != '=' && peek(1) != '>') {
                pos++;
            } else if (peek() == ':') {
                pos++;
            } else {
                throw error("expected '=' or ':' after an object key");
            }
            Expr value = parseExpr();
            items.add(new ObjectItem(key, value));
            skipSpace(false);
            if (peek() == ',') {
                pos++;
            } else if (peek() != '\n' && peek() != '}') {
                throw error("expected ',', a newline or '}' after an object item");
            }
        }
        newlinesAreSpace = saved;
        return new ObjectCons(List.copyOf(items), p);
    }

    /** After the opening bracket; consumes the closing one. Newlines are space here. */
    private Expr parseFor(Pos p, boolean object) {
        pos += 3;
        skipSpace(true);
        String first = identifier();
        String keyVar = null;
        String valueVar = first;
        skipSpace(true);
        if (peek() == ',') {
            pos++;
            skipSpace(true);
            keyVar = first;
            valueVar = identifier();
            skipSpace(true);
        }
        if (!atKeyword("in")) {
            throw error("expected 'in' in a for expression");
        }
        pos += 2;
        Expr collection = parseExpr();
        ws();
        expect(':');
        Expr keyExpr = null;
        Expr valueExpr;
        if (object) {
            keyExpr = parseExpr();
            ws();
            if (!src.startsWith("=>", pos)) {
                throw error("expected '=>' in an object for expression");
            }
            pos += 2;
        }
        valueExpr = parseExpr();
        ws();
        boolean grouping = false;
        if (src.startsWith("...", pos)) {
            pos += 3;
            grouping = true;
            ws();
        }
        Expr condition = null;
        if (atKeyword("if")) {
            pos += 2;
            condition = parseExpr();
            ws();
        }
        expect(object ? '}' : ']');
        return new ForExpr(keyVar, valueVar, collection, keyExpr, valueExpr, grouping, condition, p);
    }

    private BigDecimal parseNumber() {
        int start = pos;
        while (Character.isDigit(peek())) {
            pos++;
        }
        if (peek() == '.' && Character.isDigit(peek(1))) {
            pos++;
            while (Character.isDigit(peek())) {
                pos++;
            }
        }
        if ((peek() == 'e' || peek() == 'E')
                && (Character.isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && Character.isDigit(peek(2))))) {
            pos += 2;
            while (Character.isDigit(peek())) {
                pos++;
            }
        }
        return new BigDecimal(src.substring(start, pos));
    }

    // ------------------------------------------------------------- templates

    private Template parseQuoted() {
        Pos p = here();
        expect('"');
        List<TemplatePart> parts = parseTemplateParts(src.length(), true);
        expect('"');
        return new Template(parts, p);
    }

    private Template parseHeredoc() {
        Pos p = here();
        pos += 2;
        if (peek() == '-') {
            pos++;
        }
        String marker = identifier();
        skipSpace(false);
        if (peek() == '\r') {
            pos++;
        }
        expect('\n');
        int contentStart = pos;
        int lineStart = pos;
        while (true) {
            if (lineStart >= src.length()) {
                throw new HclParseException(p, "heredoc " + marker + " is not closed");
            }
            int lineEnd = src.indexOf('\n', lineStart);
            if (lineEnd < 0) {
                lineEnd = src.length();
            }
            if (src.substring(lineStart, lineEnd).strip().equals(marker)) {
                pos = contentStart;
                List<TemplatePart> parts = parseTemplateParts(lineStart, false);
                if (pos != lineStart) {
                    throw error("heredoc content ends inside an interpolation or directive");
                }
                pos = lineEnd;
                return new Template(parts, p);
            }
            lineStart = lineEnd + 1;
        }
    }

    private sealed interface Raw permits RawText, RawInterp, RawDirective {
    }

    private record RawText(StringBuilder text) implements Raw {
    }

    private record RawInterp(Expr expr, boolean stripBefore, boolean stripAfter) implements Raw {
    }

    private record RawDirective(String keyword, Expr expr, String keyVar, String valueVar, Pos pos,
                                boolean stripBefore, boolean stripAfter) implements Raw {
    }

    /** Reads template text up to limit (or, when quoted, up to the closing quote, not consumed). */
    private List<TemplatePart> parseTemplateParts(int limit, boolean quoted) {
        List<Raw> raws = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        while (pos < limit) {
            char c = src.charAt(pos);
            if (quoted && c == '"') {
                break;
            }
            if (quoted && c == '\n') {
                throw error("newline in a quoted string");
            }
            if (quoted && c == '\\') {
                text.append(escape());
                continue;
            }
            if ((c == '$' || c == '%') && src.startsWith(c + "" + c + "{", pos)) {
                text.append(c).append('{');
                pos += 3;
                continue;
            }
            if (c == '$' && peek(1) == '{') {
                flush(raws, text);
                pos += 2;
                boolean stripBefore = consume('~');
                boolean saved = newlinesAreSpace;
                newlinesAreSpace = true;
                Expr e = parseExpr();
                skipSpace(true);
                boolean stripAfter = consume('~');
                expect('}');
                newlinesAreSpace = saved;
                raws.add(new RawInterp(e, stripBefore, stripAfter));
                continue;
            }
            if (c == '%' && peek(1) == '{') {
                flush(raws, text);
                raws.add(directive());
                continue;
            }
            text.append(c);
            pos++;
        }
        flush(raws, text);
        applyStripMarkers(raws);
        int[] index = {0};
        List<TemplatePart> parts = nest(raws, index, Set.of());
        if (index[0] != raws.size()) {
            RawDirective d = (RawDirective) raws.get(index[0]);
            throw new HclParseException(d.pos(), "unexpected %{" + d.keyword() + "}");
        }
        return parts;
    }

    private RawDirective directive() {
        Pos p = here();
        pos += 2;
        boolean stripBefore = consume('~');
        boolean saved = newlinesAreSpace;
        newlinesAreSpace = true;
        skipSpace(true);
        String keyword = identifier();
        Expr expr = null;
        String keyVar = null;
        String valueVar = null;
        switch (keyword) {
            case "if" -> expr = parseExpr();
            case "for" -> {
                skipSpace(true);
                valueVar = identifier();
                skipSpace(true);
                if (peek() == ',') {
                    pos++;
                    skipSpace(true);
                    keyVar = valueVar;
                    valueVar = identifier();
                    skipSpace(true);
                }
                if (!atKeyword("in")) {
                    throw error("expected 'in' in a for directive");
                }
                pos += 2;
                expr = parseExpr();
            }
            case "else", "endif", "endfor" -> {
            }
            default -> throw new HclParseException(p, "unknown template directive " + keyword);
        }
        skipSpace(true);
        boolean stripAfter = consume('~');
        expect('}');
        newlinesAreSpace = saved;
        return new RawDirective(keyword, expr, keyVar, valueVar, p, stripBefore, stripAfter);
    }

    private static void flush(List<Raw> raws, StringBuilder text) {
        if (!text.isEmpty()) {
            raws.add(new RawText(new StringBuilder(text)));
            text.setLength(0);
        }
    }

    private static void applyStripMarkers(List<Raw> raws) {
        for (int i = 0; i < raws.size(); i++) {
            boolean before = raws.get(i) instanceof RawInterp ri ? ri.stripBefore()
                    : raws.get(i) instanceof RawDirective rd && rd.stripBefore();
            boolean after = raws.get(i) instanceof RawInterp ri2 ? ri2.stripAfter()
                    : raws.get(i) instanceof RawDirective rd2 && rd2.stripAfter();
            if (before && i > 0 && raws.get(i - 1) instanceof RawText t) {
                int end = t.text().length();
                while (end > 0 && Character.isWhitespace(t.text().charAt(end - 1))) {
                    end--;
                }
                t.text().setLength(end);
            }
            if (after && i + 1 < raws.size() && raws.get(i + 1) instanceof RawText t) {
                int start = 0;
                while (start < t.text().length() && Character.isWhitespace(t.text().charAt(start))) {
                    start++;
                }
                t.text().delete(0, start);
            }
        }
    }

    private static List<TemplatePart> nest(List<Raw> raws, int[] i, Set<String> terminators) {
        List<TemplatePart> parts = new ArrayList<>();
        while (i[0] < raws.size()) {
            Raw r = raws.get(i[0]);
            if (r instanceof RawText t) {
                if (!t.text().isEmpty()) {
                    parts.add(new LiteralText(t.text().toString()));
                }
                i[0]++;
            } else if (r instanceof RawInterp in) {
                parts.add(new Interpolation(in.expr()));
                i[0]++;
            } else {
                RawDirective d = (RawDirective) r;
                if (terminators.contains(d.keyword())) {
                    return parts;
                }
                i[0]++;
                switch (d.keyword()) {
                    case "if" -> {
                        List<TemplatePart> then = nest(raws, i, Set.of("else", "endif"));
                        List<TemplatePart> otherwise = List.of();
                        if (closing(raws, i, d).keyword().equals("else")) {
                            otherwise = nest(raws, i, Set.of("endif"));
                            if (!closing(raws, i, d).keyword().equals("endif")) {
                                throw new HclParseException(d.pos(), "%{if} without %{endif}");
                            }
                        }
                        parts.add(new IfDirective(d.expr(), then, otherwise));
                    }
                    case "for" -> {
                        List<TemplatePart> body = nest(raws, i, Set.of("endfor"));
                        closing(raws, i, d);
                        parts.add(new ForDirective(d.keyVar(), d.valueVar(), d.expr(), body));
                    }
                    default -> throw new HclParseException(d.pos(), "unexpected %{" + d.keyword() + "}");
                }
            }
        }
        return parts;
    }

    private static RawDirective closing(List<Raw> raws, int[] i, RawDirective opening) {
        if (i[0] >= raws.size()) {
            throw new HclParseException(opening.pos(), "%{" + opening.keyword() + "} is not closed");
        }
        return (RawDirective) raws.get(i[0]++);
    }

    private String escape() {
        pos++;
        char c = peek();
        pos++;
        return switch (c) {
            case 'n' -> "\n";
            case 'r' -> "\r";
            case 't' -> "\t";
            case '"' -> "\"";
            case '\\' -> "\\";
            case 'u' -> codePoint(4);
            case 'U' -> codePoint(8);
            default -> throw error("unknown escape \\" + c);
        };
    }

    private String codePoint(int digits) {
        if (pos + digits > src.length()) {
            throw error("truncated unicode escape");
        }
        String hex = src.substring(pos, pos + digits);
        pos += digits;
        return new String(Character.toChars(Integer.parseInt(hex, 16)));
    }

    // --------------------------------------------------------------- lexing

    private void ws() {
        skipSpace(newlinesAreSpace);
    }

    /** Skips blanks and comments; newlines too when asked. */
    private void skipSpace(boolean newlines) {
        while (!eof()) {
            char c = peek();
            if (c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n')) {
                pos++;
            } else if (c == '#' || (c == '/' && peek(1) == '/')) {
                while (!eof() && peek() != '\n') {
                    pos++;
                }
            } else if (c == '/' && peek(1) == '*') {
                int end = src.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw error("unclosed comment");
                }
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private boolean atKeyword(String word) {
        return src.startsWith(word, pos) && !isIdentPart(peek(word.length()));
    }

    private String identifier() {
        if (!isIdentStart(peek())) {
            throw error("name expected, found " + (eof() ? "end of input" : "'" + peek() + "'"));
        }
        int start = pos;
        while (isIdentPart(peek())) {
            pos++;
        }
        return src.substring(start, pos);
    }

    private static boolean isIdentStart(char c) {
        return Character.isLetter(c) || c == '_';
    }

    private static boolean isIdentPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-';
    }

    private boolean consume(char c) {
        if (peek() == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "', found " + (eof() ? "end of input" : "'" + peek() + "'"));
        }
        pos++;
    }

    private boolean eof() {
        return pos >= src.length();
    }

    private char peek() {
        return peek(0);
    }

    private char peek(int ahead) {
        int i = pos + ahead;
        return i < src.length() ? src.charAt(i) : '\0';
    }

    private Pos here() {
        int lo = 0;
        int hi = lineStarts.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (lineStarts[mid] <= pos) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return new Pos(file, lo + 1);
    }

    private HclParseException error(String message) {
        return new HclParseException(here(), message);
    }
}
