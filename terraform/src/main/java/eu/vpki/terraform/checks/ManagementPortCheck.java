package eu.vpki.terraform.checks;

import eu.vpki.terraform.checks.Checks.Located;
import eu.vpki.terraform.checks.Resolver.Constant;
import eu.vpki.terraform.checks.Resolver.Leaf;
import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The public load balancer never forwards to a management (actuator) port: every target group and
 * target-group attachment forwards to a port that resolves to constants none of which is a management
 * port (a service's public port + 1000, 9081 to 9085), and every listener listens on 80 or 443. A port
 * the resolver cannot follow to constants, or one computed from them (such as {@code port + 1000}),
 * counts as a violation (it cannot be shown safe). The
 * target groups' {@code health_check} block may (and does) use the management port: that is how the ALB
 * checks {@code /actuator/health}, and no listener forwards there.
 */
public final class ManagementPortCheck implements Check {
    static final Set<Integer> MANAGEMENT = Set.of(9081, 9082, 9083, 9084, 9085);
    static final Set<Integer> LISTENER = Set.of(80, 443);

    @Override
    public String id() {
        return "management-port";
    }

    @Override
    public List<Violation> run(Deployment d) {
        List<Violation> violations = new ArrayList<>();
        for (Located r : Checks.resources(d.root())) {
            Block b = r.block();
            switch (b.label(0)) {
                case "aws_lb_target_group", "aws_lb_target_group_attachment" -> b.body().expr("port").ifPresent(port -> {
                    // one violation per resource, naming the first port that is not shown safe
                    ports(port, r).stream().filter(p -> !(p instanceof Integer n) || MANAGEMENT.contains(n)).findFirst()
                            .ifPresent(p -> violations.add(new Violation(id(), b.pos(), r.describe() + " forwards to "
                                    + (p instanceof Integer ? "management port " + p : "a port that is not a constant (" + p + ")"))));
                });
                case "aws_lb_listener" -> b.body().expr("port").ifPresent(
                        port -> ports(port, r).stream().filter(p -> !(p instanceof Integer n) || !LISTENER.contains(n)).findFirst()
                                .ifPresent(p -> violations.add(new Violation(id(), b.pos(), r.describe() + " listens on " + p
                                        + ", not 80 or 443"))));
                default -> {
                    // not a load-balancer resource
                }
            }
        }
        return violations;
    }

    /** The port values an expression can take: Integers, or a description of what did not resolve. */
    private static List<Object> ports(Expr e, Located r) {
        List<Object> out = new ArrayList<>();
        List<Leaf> leaves = Resolver.leaves(e, r.env());
        for (Leaf l : leaves) {
            if (l instanceof Constant c && !c.plain()) {
                // an operand of an expression (e.g. port + 1000): the port is computed, not this constant
                out.add("a value computed from " + c.value());
            } else {
                out.add(l instanceof Constant c
                        ? IngressCheck.asNumber(c.value()).<Object>map(n -> n).orElse(String.valueOf(c.value()))
                        : l.toString());
            }
        }
        if (leaves.isEmpty()) {
            out.add("nothing");
        }
        return out;
    }
}
