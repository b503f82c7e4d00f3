package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Body;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.Literal;
import eu.vpki.terraform.hcl.Ast.Pos;
import eu.vpki.terraform.hcl.Ast.Template;
import eu.vpki.terraform.checks.Checks.Located;
import eu.vpki.terraform.checks.Resolver.Constant;
import eu.vpki.terraform.checks.Resolver.Leaf;
import eu.vpki.terraform.checks.Resolver.RootVariable;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * No ingress rule opens JGroups, Redis, SSH or an admin API to the whole internet. Covers inline
 * {@code ingress} blocks of aws_security_group, aws_security_group_rule (type ingress) and
 * aws_vpc_security_group_ingress_rule. Ports and CIDRs are followed through variables, locals and
 * for_each; an unresolvable port counts as every port. A root variable whose value can become a protected
 * port's source unchanged must have a validation rejecting 0.0.0.0/0 and ::/0, and no such default.
 */
public final class IngressCheck implements Check {

    static final Map<Integer, String> PROTECTED = new TreeMap<>(Map.of(
            22, "SSH",
            6379, "Redis",
            7800, "JGroups",
            8081, "RCA admin API",
            8084, "Operator API"));
    static final Set<String> WORLD = Set.of("0.0.0.0/0", "::/0");

    @Override
    public String id() {
        return "ingress";
    }

    @Override
    public List<Violation> run(Deployment d) {
        List<Violation> violations = new ArrayList<>();
        for (Located r : Checks.resources(d.root())) {
            Block b = r.block();
            switch (b.label(0)) {
                case "aws_security_group" -> b.body().blocks("ingress").forEach(in -> rule(d, r, in.body(), in.pos(),
                        "from_port", "to_port", "protocol", List.of("cidr_blocks", "ipv6_cidr_blocks"), violations));
                case "aws_security_group_rule" -> {
                    boolean ingress = b.body().expr("type").flatMap(IngressCheck::constantString)
                            .map("ingress"::equals).orElse(true);
                    if (ingress) {
                        rule(d, r, b.body(), b.pos(), "from_port", "to_port", "protocol",
                                List.of("cidr_blocks", "ipv6_cidr_blocks"), violations);
                    }
                }
                case "aws_vpc_security_group_ingress_rule" -> rule(d, r, b.body(), b.pos(), "from_port", "to_port",
                        "ip_protocol", List.of("cidr_ipv4", "cidr_ipv6"), violations);
                default -> {
                    // not an ingress rule
                }
            }
        }
        return violations;
    }

    private void rule(Deployment d, Located r, Body body, Pos pos, String fromAttr, String toAttr, String protocolAttr,
                      List<String> cidrAttrs, List<Violation> violations) {
        Resolver.Env env = r.env();
        Set<Integer> opened = new LinkedHashSet<>();
        boolean allPorts = body.expr(protocolAttr).map(p -> Resolver.leaves(p, env).stream()
                .anyMatch(l -> l instanceof Constant c && Set.of("-1", "all").contains(String.valueOf(asText(c.value())))))
                .orElse(false);
        Optional<int[]> range = allPorts ? Optional.empty() : portRange(body, fromAttr, toAttr, env);
        for (int port : PROTECTED.keySet()) {
            if (range.isEmpty() || (range.get()[0] <= port && port <= range.get()[1])) {
                opened.add(port);
            }
        }
        if (opened.isEmpty()) {
            return;
        }
        Set<String> worldSources = new LinkedHashSet<>();
        for (String attr : cidrAttrs) {
            Optional<Expr> cidr = body.expr(attr);
            if (cidr.isEmpty()) {
                continue;
            }
            // cidr_blocks and ipv6_cidr_blocks are lists: their elements are the sources
            List<Resolver.PStep> select = attr.endsWith("_blocks") ? List.of(Resolver.ANY) : List.of();
            for (Leaf l : Resolver.leaves(cidr.get(), env, select)) {
                if (l instanceof Constant c && WORLD.contains(String.valueOf(c.value()))) {
                    worldSources.add(String.valueOf(c.value()));
                } else if (l instanceof RootVariable v && v.plain()) {
                    rootVariable(d, v, opened, r, violations).forEach(worldSources::add);
                }
            }
        }
        if (!worldSources.isEmpty()) {
            violations.add(new Violation(id(), pos, r.describe() + " opens " + describe(opened) + " to "
                    + String.join(", ", worldSources)));
        }
    }

    /** World-open defaults of a root variable; and a violation if nothing validates it. */
    private List<String> rootVariable(Deployment d, RootVariable v, Set<Integer> opened, Located r,
                                      List<Violation> violations) {
        Block declared = d.root().module().variables().get(v.name());
        List<String> world = new ArrayList<>();
        declared.body().expr("default").ifPresent(def -> Resolver.leaves(def, Resolver.Env.of(d.root(), null)).stream()
                .filter(l -> l instanceof Constant c && WORLD.contains(String.valueOf(c.value())))
                .forEach(l -> world.add(((Constant) l).value() + " (default of var." + v.name() + ")")));
        boolean validated = declared.body().blocks("validation").stream().anyMatch(val -> val.body().expr("condition")
                .map(cond -> constants(cond, d).containsAll(WORLD)).orElse(false));
        if (!validated) {
            violations.add(new Violation(id(), declared.pos(), "var." + v.name() + " is a source of "
                    + r.describe() + " (" + describe(opened) + ") but no validation rejects 0.0.0.0/0 and ::/0"));
        }
        return world;
    }

    private static Set<String> constants(Expr e, Deployment d) {
        Set<String> out = new LinkedHashSet<>();
        Resolver.leaves(e, Resolver.Env.of(d.root(), null)).forEach(l -> {
            if (l instanceof Constant c) {
                out.add(String.valueOf(c.value()));
            }
        });
        return out;
    }

    /** [from, to], or empty when a bound cannot be resolved (then every port counts as opened). */
    private static Optional<int[]> portRange(Body body, String fromAttr, String toAttr, Resolver.Env env) {
        Optional<int[]> from = bounds(body.expr(fromAttr), env);
        Optional<int[]> to = bounds(body.expr(toAttr), env);
        if (from.isEmpty() || to.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new int[]{from.get()[0], to.get()[1]});
    }

    private static Optional<int[]> bounds(Optional<Expr> e, Resolver.Env env) {
        if (e.isEmpty()) {
            return Optional.empty();
        }
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        List<Leaf> leaves = Resolver.leaves(e.get(), env);
        for (Leaf l : leaves) {
            if (!(l instanceof Constant c) || asNumber(c.value()).isEmpty()) {
                return Optional.empty();
            }
            int n = asNumber(c.value()).get();
            min = Math.min(min, n);
            max = Math.max(max, n);
        }
        return leaves.isEmpty() ? Optional.empty() : Optional.of(new int[]{min, max});
    }

    /** A resolved constant as a port number, if it is one. */
    static Optional<Integer> asNumber(Object v) {
        if (v instanceof BigDecimal n) {
            return Optional.of(n.intValue());
        }
        if (v instanceof String s && s.matches("-?\\d+")) {
            return Optional.of(Integer.parseInt(s));
        }
        return Optional.empty();
    }

    private static Object asText(Object v) {
        return v instanceof BigDecimal n ? n.toPlainString() : v;
    }

    private static Optional<String> constantString(Expr e) {
        if (e instanceof Literal l && l.value() instanceof String s) {
            return Optional.of(s);
        }
        return e instanceof Template t ? t.constant() : Optional.empty();
    }

    private static String describe(Set<Integer> ports) {
        List<String> parts = new ArrayList<>();
        ports.forEach(p -> parts.add(p + " (" + PROTECTED.get(p) + ")"));
        return "port " + String.join(", ", parts);
    }
}
