package eu.vpki.terraform.checks;

import eu.vpki.terraform.checks.Checks.Located;
import eu.vpki.terraform.checks.Resolver.Constant;
import eu.vpki.terraform.checks.Resolver.Leaf;
import eu.vpki.terraform.checks.Resolver.ResourceRef;
import eu.vpki.terraform.hcl.Ast.Block;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The load balancers' listeners speak TLS where they say so, and only with TLS 1.2 or 1.3 (issue #18, the
 * ETSI endpoints over HTTPS as an option; docs/deployment.md):
 * <ul>
 * <li>a listener on port 443 has protocol HTTPS, and an HTTPS listener listens on 443;</li>
 * <li>an HTTPS listener sets {@code certificate_arn} and an {@code ssl_policy} that resolves to TLS 1.3 policies
 * only ({@value #TLS13_POLICY_PREFIX}*: TLS 1.3, and TLS 1.2 with forward-secret AEAD suites only where the policy
 * allows 1.2). Without {@code ssl_policy} the ALB takes ELBSecurityPolicy-2016-08, which still accepts TLS 1.0;</li>
 * <li>every listener is the {@code listener_arn} of at least one {@code aws_lb_listener_rule} of its module
 * (host names select the service; a listener without rules answers its default action to every request).</li>
 * </ul>
 * A value the resolver cannot follow to constants counts as a violation (it cannot be shown right).
 */
public final class ListenerTlsCheck implements Check {
    static final String TLS13_POLICY_PREFIX = "ELBSecurityPolicy-TLS13-";
    static final int HTTPS_PORT = 443;

    @Override
    public String id() {
        return "listener-tls";
    }

    @Override
    public List<Violation> run(Deployment d) {
        List<Violation> violations = new ArrayList<>();
        List<Located> resources = Checks.resources(d.root());
        for (Located r : resources) {
            Block b = r.block();
            if (!b.label(0).equals("aws_lb_listener")) {
                continue;
            }
            Optional<String> protocol = constant(r, "protocol");
            boolean https = protocol.filter("HTTPS"::equals).isPresent();
            boolean on443 = constant(r, "port").filter(p -> IngressCheck.asNumber(p).orElse(-1) == HTTPS_PORT).isPresent();
            if (on443 && !https) {
                violations.add(new Violation(id(), b.pos(), r.describe() + " listens on 443 with protocol "
                        + protocol.orElse("(not a constant)") + ", not HTTPS"));
            }
            if (https && !on443) {
                violations.add(new Violation(id(), b.pos(), r.describe() + " speaks HTTPS on another port than 443"));
            }
            if (https) {
                if (b.body().expr("certificate_arn").isEmpty()) {
                    violations.add(new Violation(id(), b.pos(), r.describe() + " speaks HTTPS without certificate_arn"));
                }
                policyViolation(r).ifPresent(why -> violations.add(new Violation(id(), b.pos(), r.describe() + " " + why)));
            }
            if (!hasRule(r, resources)) {
                violations.add(new Violation(id(), b.pos(), r.describe()
                        + " is the listener_arn of no aws_lb_listener_rule of its module (every request gets its default action)"));
            }
        }
        return violations;
    }

    /** Why the HTTPS listener's ssl_policy is not shown to be a TLS 1.3 policy, if it is not. */
    private static Optional<String> policyViolation(Located r) {
        Optional<Leaf> bad = r.block().body().expr("ssl_policy").map(e -> Resolver.leaves(e, r.env()).stream()
                .filter(l -> !(l instanceof Constant c && c.plain() && String.valueOf(c.value()).startsWith(TLS13_POLICY_PREFIX)))
                .findFirst()).orElse(null);
        if (bad == null) {
            return Optional.of("speaks HTTPS without ssl_policy (the ALB's default, ELBSecurityPolicy-2016-08, accepts TLS 1.0)");
        }
        return bad.map(l -> "has ssl_policy " + (l instanceof Constant c ? c.value() : l) + ", not a " + TLS13_POLICY_PREFIX + "* policy");
    }

    /** The attribute's value when it resolves to exactly one constant. */
    private static Optional<String> constant(Located r, String attribute) {
        return r.block().body().expr(attribute).flatMap(e -> {
            List<Leaf> leaves = Resolver.leaves(e, r.env());
            return leaves.size() == 1 && leaves.get(0) instanceof Constant c && c.plain()
                    ? Optional.of(c.value() instanceof BigDecimal n ? n.toPlainString() : String.valueOf(c.value()))
                    : Optional.empty();
        });
    }

    /** Whether a listener rule of the listener's module instance names it in its listener_arn. */
    private static boolean hasRule(Located listener, List<Located> resources) {
        Set<String> named = new HashSet<>();
        for (Located rule : resources) {
            if (rule.module() == listener.module() && rule.block().label(0).equals("aws_lb_listener_rule")) {
                rule.block().body().expr("listener_arn").ifPresent(arn -> Resolver.leaves(arn, rule.env()).stream()
                        .filter(l -> l instanceof ResourceRef ref && ref.type().equals("aws_lb_listener") && !ref.data())
                        .forEach(l -> named.add(((ResourceRef) l).name())));
            }
        }
        return named.contains(listener.block().label(1));
    }
}
