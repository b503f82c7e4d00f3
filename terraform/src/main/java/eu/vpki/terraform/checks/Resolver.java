package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Attribute;
import eu.vpki.terraform.hcl.Ast.BinaryOp;
import eu.vpki.terraform.hcl.Ast.Block;
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

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Static data flow over a module tree: what an expression can evaluate to, following references through
 * {@code var.} (to the calling module's argument), {@code local.}, {@code module.x.out} (into the child's
 * output), {@code each.value} (into the enclosing block's for_each) and for-expression variables, and
 * selecting through object and tuple constructors, {@code merge} and indexes. Where it cannot be exact it
 * over-approximates (an unknown index selects every element), so a check that requires every leaf to
 * satisfy a property is conservative.
 *
 * <p>A leaf is {@code plain} when every hop from the start was a reference, a selection (attribute, index,
 * element of toset/concat/..., key of merge) or a conditional branch, so its value can reach the start
 * unchanged; any function or operator on the way makes it derived.
 */
public final class Resolver {

    /** What a flow ends in. */
    public sealed interface Leaf permits Constant, RootVariable, ResourceRef, Meta, Opaque, TemplateCall, KeyName {
        Pos pos();
    }

    public record Constant(Object value, boolean plain, Pos pos) implements Leaf {
    }

    /** A variable of the root module (an input of the whole configuration), with the steps still to apply. */
    public record RootVariable(String name, List<PStep> steps, boolean plain, Pos pos) implements Leaf {
    }

    public record ResourceRef(String type, String name, boolean data, Pos pos) implements Leaf {
    }

    /** each.key, count.index, path.*, a for-expression key: selectors and context, not data. */
    public record Meta(String what, Pos pos) implements Leaf {
    }

    /** Something the resolver does not see through (most functions, operators). */
    public record Opaque(String why, Pos pos) implements Leaf {
    }

    /** A templatefile(path, vars) call reached with nothing left to select. */
    public record TemplateCall(FunctionCall call, Env env) implements Leaf {
        @Override
        public Pos pos() {
            return call.pos();
        }
    }

    /** In keys mode: one key of an object. */
    public record KeyName(String name, Pos pos) implements Leaf {
    }

    /** A pending selection: an attribute or constant index, any element, or "the keys". */
    public sealed interface PStep permits Key, Any, Keys {
    }

    public record Key(String name) implements PStep {
    }

    public record Any() implements PStep {
    }

    public record Keys() implements PStep {
    }

    public static final PStep ANY = new Any();
    public static final PStep KEYS = new Keys();

    /** Where an expression is evaluated: module instance, enclosing resource/module block, for bindings. */
    public record Env(ModuleInstance module, Block enclosing, Map<String, Binding> bindings) {
        public static Env of(ModuleInstance module, Block enclosing) {
            return new Env(module, enclosing, Map.of());
        }

        Env bind(String name, Binding b) {
            Map<String, Binding> m = new HashMap<>(bindings);
            m.put(name, b);
            return new Env(module, enclosing, m);
        }
    }

    /** A for-expression variable: its collection (with a selection prefix), or a key. */
    public record Binding(Expr collection, Env env, List<PStep> prefix, boolean isKey) {
    }

    /** A for expression and where it is evaluated. */
    public record ForIn(ForExpr expr, Env env) {
    }

    private static final int MAX_DEPTH = 200;
    private static final Set<String> ELEMENT_PRESERVING = Set.of(
            "toset", "tolist", "tomap", "concat", "flatten", "values", "setunion", "distinct", "sort");

    private Resolver() {
    }

    public static List<Leaf> leaves(Expr e, Env env, List<PStep> pending) {
        List<Leaf> out = new ArrayList<>();
        walk(e, env, List.copyOf(pending), true, out, 0);
        return out;
    }

    public static List<Leaf> leaves(Expr e, Env env, PStep... pending) {
        return leaves(e, env, List.of(pending));
    }

    /**
     * The for expressions whose result can be part of e's value, or of a part of it: e itself, and those
     * reached through local values, function arguments, tuple and object elements, template
     * interpolations and conditional branches (not into a for expression's own body).
     */
    public static List<ForIn> forExpressions(Expr e, Env env) {
        List<ForIn> out = new ArrayList<>();
        collectFor(e, env, out, 0);
        return out;
    }

    private static void collectFor(Expr e, Env env, List<ForIn> out, int depth) {
        if (depth > MAX_DEPTH) {
            return;
        }
        int d = depth + 1;
        List<Expr> parts = List.of();
        if (e instanceof ForExpr f) {
            out.add(new ForIn(f, env));
        } else if (e instanceof ScopeTraversal st && st.root().equals("local") && !st.steps().isEmpty()
                && st.steps().get(0) instanceof GetAttr g && env.module().module().locals().containsKey(g.name())) {
            collectFor(env.module().module().locals().get(g.name()).value(), Env.of(env.module(), null), out, d);
        } else if (e instanceof FunctionCall fc) {
            parts = fc.args();
        } else if (e instanceof Tuple t) {
            parts = t.items();
        } else if (e instanceof ObjectCons o) {
            parts = o.items().stream().map(ObjectItem::value).toList();
        } else if (e instanceof Conditional c) {
            parts = List.of(c.then(), c.otherwise());
        } else if (e instanceof Parens p) {
            parts = List.of(p.inner());
        } else if (e instanceof RelativeTraversal rt) {
            parts = List.of(rt.source());
        } else if (e instanceof Template t) {
            parts = t.parts().stream().filter(Interpolation.class::isInstance).map(p -> ((Interpolation) p).expr()).toList();
        }
        parts.forEach(p -> collectFor(p, env, out, d));
    }

    private static void walk(Expr e, Env env, List<PStep> pending, boolean plain, List<Leaf> out, int depth) {
        if (depth > MAX_DEPTH) {
            out.add(new Opaque("reference chain too deep (a cycle?)", e.pos()));
            return;
        }
        int d = depth + 1;
        if (e instanceof Parens p) {
            walk(p.inner(), env, pending, plain, out, d);
        } else if (e instanceof Literal l) {
            if (pending.isEmpty()) {
                out.add(new Constant(l.value(), plain, l.pos()));
            } else if (l.value() != null) {
                out.add(new Opaque("selection from a constant", l.pos()));
            }
        } else if (e instanceof Template t) {
            walkTemplate(t, env, pending, plain, out, d);
        } else if (e instanceof ScopeTraversal st) {
            reference(st, env, concat(convert(st.steps()), pending), plain, out, d);
        } else if (e instanceof RelativeTraversal rt) {
            walk(rt.source(), env, concat(convert(rt.steps()), pending), plain, out, d);
        } else if (e instanceof Splat sp) {
            List<PStep> steps = new ArrayList<>();
            steps.add(ANY);
            steps.addAll(convert(sp.eachSteps()));
            walk(sp.source(), env, concat(steps, pending), plain, out, d);
        } else if (e instanceof FunctionCall fc) {
            call(fc, env, pending, plain, out, d);
        } else if (e instanceof Tuple t) {
            walkTuple(t, env, pending, plain, out, d);
        } else if (e instanceof ObjectCons o) {
            walkObject(o, env, pending, plain, out, d);
        } else if (e instanceof ForExpr f) {
            walkFor(f, env, pending, plain, out, d);
        } else if (e instanceof Conditional c) {
            // either branch may be the value, unchanged
            walk(c.then(), env, pending, plain, out, d);
            walk(c.otherwise(), env, pending, plain, out, d);
        } else if (e instanceof BinaryOp b) {
            operands(List.of(b.left(), b.right()), b.pos(), "operator " + b.op(), env, pending, out, d);
        } else if (e instanceof UnaryOp u) {
            operands(List.of(u.operand()), u.pos(), "operator " + u.op(), env, pending, out, d);
        } else {
            throw new IllegalStateException("unhandled expression " + e);
        }
    }

    private static void walkTuple(Tuple t, Env env, List<PStep> pending, boolean plain, List<Leaf> out, int d) {
        if (pending.isEmpty()) {
            t.items().forEach(i -> walk(i, env, pending, false, out, d));
        } else if (pending.get(0) instanceof Key k && isIndex(k.name())) {
            int i = Integer.parseInt(k.name());
            if (i < t.items().size()) {
                walk(t.items().get(i), env, pending.subList(1, pending.size()), plain, out, d);
            }
        } else if (pending.get(0) instanceof Any) {
            t.items().forEach(i -> walk(i, env, pending.subList(1, pending.size()), plain, out, d));
        } else {
            out.add(new Opaque("keys or attribute of a tuple", t.pos()));
        }
    }

    private static void operands(List<Expr> operands, Pos pos, String what, Env env, List<PStep> pending,
                                 List<Leaf> out, int d) {
        if (!pending.isEmpty()) {
            out.add(new Opaque("selection from the result of " + what, pos));
            return;
        }
        operands.forEach(o -> walk(o, env, pending, false, out, d));
    }

    private static void walkTemplate(Template t, Env env, List<PStep> pending, boolean plain, List<Leaf> out, int d) {
        Optional<Expr> single = t.unwrapped();
        if (single.isPresent()) {
            walk(single.get(), env, pending, plain, out, d);
            return;
        }
        Optional<String> constant = t.constant();
        if (constant.isPresent()) {
            if (pending.isEmpty()) {
                out.add(new Constant(constant.get(), plain, t.pos()));
            } else {
                out.add(new Opaque("selection from a string", t.pos()));
            }
            return;
        }
        if (!pending.isEmpty()) {
            out.add(new Opaque("selection from a string template", t.pos()));
            return;
        }
        parts(t.parts(), t.pos(), env, out, d);
    }

    private static void parts(List<TemplatePart> parts, Pos pos, Env env, List<Leaf> out, int d) {
        for (TemplatePart p : parts) {
            if (p instanceof LiteralText lt) {
                out.add(new Constant(lt.text(), false, pos));
            } else if (p instanceof Interpolation in) {
                walk(in.expr(), env, List.of(), false, out, d);
            }
        }
    }

    private static void walkObject(ObjectCons o, Env env, List<PStep> pending, boolean plain, List<Leaf> out, int d) {
        if (pending.isEmpty()) {
            o.items().forEach(i -> walk(i.value(), env, pending, false, out, d));
            return;
        }
        PStep first = pending.get(0);
        List<PStep> rest = pending.subList(1, pending.size());
        for (ObjectItem item : o.items()) {
            Optional<String> key = item.constantKey();
            if (first instanceof Keys) {
                out.add(key.<Leaf>map(s -> new KeyName(s, o.pos()))
                        .orElseGet(() -> new Opaque("computed object key", o.pos())));
            } else if (first instanceof Any) {
                walk(item.value(), env, rest, plain, out, d);
            } else if (key.isEmpty()) {
                walk(item.value(), env, rest, false, out, d);
            } else if (key.get().equals(((Key) first).name())) {
                walk(item.value(), env, rest, plain, out, d);
            }
        }
    }

    private static void walkFor(ForExpr f, Env env, List<PStep> pending, boolean plain, List<Leaf> out, int d) {
        boolean object = f.keyExpr() != null;
        boolean identityKey = object && f.keyVar() != null && f.keyExpr() instanceof ScopeTraversal kt
                && kt.root().equals(f.keyVar()) && kt.steps().isEmpty() && !f.grouping();
        PStep first = pending.isEmpty() ? null : pending.get(0);
        List<PStep> rest = pending.isEmpty() ? pending : pending.subList(1, pending.size());
        if (first instanceof Keys) {
            if (identityKey) {
                walk(f.collection(), env, List.of(KEYS), plain, out, d);
            } else {
                out.add(new Opaque("keys computed by a for expression", f.pos()));
            }
            return;
        }
        List<PStep> elementPrefix = List.of(ANY);
        boolean keepPlain = false;
        if (first instanceof Key k && identityKey) {
            // {for k, v in c : k => ...}["x"] exists only if c has the key "x"
            List<Leaf> keys = leaves(f.collection(), env, List.of(KEYS));
            boolean mayExist = keys.stream().anyMatch(l -> !(l instanceof KeyName kn) || kn.name().equals(k.name()));
            if (!mayExist) {
                return;
            }
            elementPrefix = List.of(k);
            keepPlain = plain;
        } else if (first instanceof Any && identityKey) {
            keepPlain = plain;
        }
        Env inner = env.bind(f.valueVar(), new Binding(f.collection(), env, elementPrefix, false));
        if (f.keyVar() != null) {
            inner = inner.bind(f.keyVar(), new Binding(f.collection(), env, List.of(), true));
        }
        walk(f.valueExpr(), inner, first == null ? pending : rest, keepPlain, out, d);
    }

    private static void call(FunctionCall fc, Env env, List<PStep> pending, boolean plain, List<Leaf> out, int d) {
        String name = fc.name();
        if (name.equals("templatefile") && pending.isEmpty()) {
            out.add(new TemplateCall(fc, env));
            return;
        }
        if (name.equals("merge")) {
            boolean selecting = !pending.isEmpty() && !(pending.get(0) instanceof Keys);
            fc.args().forEach(a -> walk(a, env, pending, selecting && plain, out, d));
            return;
        }
        if (name.equals("setproduct") && pending.size() >= 2 && pending.get(0) instanceof Any
                && pending.get(1) instanceof Key k && isIndex(k.name())) {
            int i = Integer.parseInt(k.name());
            if (i < fc.args().size()) {
                List<PStep> steps = concat(List.of(ANY), pending.subList(2, pending.size()));
                walk(fc.args().get(i), env, steps, false, out, d);
            }
            return;
        }
        if (ELEMENT_PRESERVING.contains(name) && !pending.isEmpty() && pending.get(0) instanceof Any) {
            // an element of toset(x), concat(x, y), ... is an element of an argument, unchanged;
            // an element of flatten(x) is an element of an element of x (one level, the common use)
            List<PStep> steps = name.equals("flatten") ? concat(List.of(ANY), pending) : pending;
            fc.args().forEach(a -> walk(a, env, steps, plain, out, d));
            return;
        }
        operands(fc.args(), fc.pos(), name + "()", env, pending, out, d);
    }

    private static void reference(ScopeTraversal st, Env env, List<PStep> steps, boolean plain, List<Leaf> out, int d) {
        String root = st.root();
        Binding b = env.bindings().get(root);
        if (b != null) {
            if (b.isKey()) {
                out.add(new Meta("for-expression key " + root, st.pos()));
            } else {
                walk(b.collection(), b.env(), concat(b.prefix(), steps), plain, out, d);
            }
            return;
        }
        switch (root) {
            case "var" -> variable(st, env, steps, plain, out, d);
            case "local" -> {
                Optional<String> name = firstName(steps);
                Attribute local = name.map(n -> env.module().module().locals().get(n)).orElse(null);
                if (local == null) {
                    out.add(new Opaque("unknown local " + name.orElse("?"), st.pos()));
                } else {
                    walk(local.value(), Env.of(env.module(), null), steps.subList(1, steps.size()), plain, out, d);
                }
            }
            case "module" -> moduleOutput(st, env, steps, plain, out, d);
            case "each" -> {
                Optional<String> what = firstName(steps);
                Optional<Expr> forEach = Optional.ofNullable(env.enclosing()).flatMap(b2 -> b2.body().expr("for_each"));
                if (what.equals(Optional.of("value")) && forEach.isPresent()) {
                    walk(forEach.get(), env, concat(List.of(ANY), steps.subList(1, steps.size())), plain, out, d);
                } else {
                    out.add(new Meta("each." + what.orElse("?"), st.pos()));
                }
            }
            case "count", "path", "terraform", "self" -> out.add(new Meta(root, st.pos()));
            case "data" -> {
                if (steps.size() >= 2 && steps.get(0) instanceof Key t && steps.get(1) instanceof Key n) {
                    out.add(new ResourceRef(t.name(), n.name(), true, st.pos()));
                } else {
                    out.add(new Opaque("malformed data reference", st.pos()));
                }
            }
            default -> {
                Optional<String> name = firstName(steps);
                out.add(name.<Leaf>map(n -> new ResourceRef(root, n, false, st.pos()))
                        .orElseGet(() -> new Opaque("unknown name " + root, st.pos())));
            }
        }
    }

    private static void variable(ScopeTraversal st, Env env, List<PStep> steps, boolean plain, List<Leaf> out, int d) {
        Optional<String> name = firstName(steps);
        if (name.isEmpty()) {
            out.add(new Opaque("malformed variable reference", st.pos()));
            return;
        }
        ModuleInstance m = env.module();
        List<PStep> rest = steps.subList(1, steps.size());
        Block declared = m.module().variables().get(name.get());
        if (declared == null) {
            out.add(new Opaque("undeclared variable " + name.get(), st.pos()));
            return;
        }
        if (m.call().isEmpty()) {
            out.add(new RootVariable(name.get(), List.copyOf(rest), plain, st.pos()));
            return;
        }
        Block call = m.call().get();
        Optional<Expr> argument = call.body().expr(name.get());
        Optional<Expr> fallback = argument.isPresent() ? argument : declared.body().expr("default");
        if (fallback.isEmpty()) {
            out.add(new Opaque("variable " + name.get() + " is not set by " + call.pos(), st.pos()));
            return;
        }
        Env where = argument.isPresent() ? Env.of(m.parent().orElseThrow(), call) : Env.of(m, null);
        walk(fallback.get(), where, rest, plain, out, d);
    }

    private static void moduleOutput(ScopeTraversal st, Env env, List<PStep> steps, boolean plain, List<Leaf> out, int d) {
        Optional<String> callName = firstName(steps);
        ModuleInstance child = callName.map(n -> env.module().children().get(n)).orElse(null);
        if (child == null) {
            out.add(new Opaque("module " + callName.orElse("?") + " is not a local module", st.pos()));
            return;
        }
        int next = 1;
        Block call = child.call().orElseThrow();
        boolean expanded = call.body().attribute("count").isPresent() || call.body().attribute("for_each").isPresent();
        if (expanded && next < steps.size() && !(steps.get(next) instanceof Key k && child.module().outputs().containsKey(k.name()))) {
            next++; // the instance key of module.x[key].output
        }
        if (next >= steps.size() || !(steps.get(next) instanceof Key outName)) {
            out.add(new Opaque("whole-module reference", st.pos()));
            return;
        }
        Block output = child.module().outputs().get(outName.name());
        if (output == null || output.body().expr("value").isEmpty()) {
            out.add(new Opaque("module " + callName.get() + " has no output " + outName.name(), st.pos()));
            return;
        }
        walk(output.body().expr("value").get(), Env.of(child, null), steps.subList(next + 1, steps.size()), plain, out, d);
    }

    private static Optional<String> firstName(List<PStep> steps) {
        return !steps.isEmpty() && steps.get(0) instanceof Key k ? Optional.of(k.name()) : Optional.empty();
    }

    /** Syntax steps to pending steps: attributes and constant indexes become keys, other indexes ANY. */
    static List<PStep> convert(List<Step> steps) {
        List<PStep> out = new ArrayList<>(steps.size());
        for (Step s : steps) {
            if (s instanceof GetAttr g) {
                out.add(new Key(g.name()));
            } else {
                out.add(constantKey(((Index) s).key()).<PStep>map(Key::new).orElse(ANY));
            }
        }
        return out;
    }

    private static Optional<String> constantKey(Expr e) {
        if (e instanceof Literal l && l.value() instanceof BigDecimal n) {
            return Optional.of(n.toPlainString());
        }
        if (e instanceof Literal l && l.value() instanceof String s) {
            return Optional.of(s);
        }
        if (e instanceof Template t) {
            return t.constant();
        }
        return Optional.empty();
    }

    private static boolean isIndex(String s) {
        return !s.isEmpty() && s.chars().allMatch(Character::isDigit);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        if (a.isEmpty()) {
            return b;
        }
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
