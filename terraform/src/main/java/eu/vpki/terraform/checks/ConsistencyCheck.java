package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.ForDirective;
import eu.vpki.terraform.hcl.Ast.Interpolation;
import eu.vpki.terraform.hcl.Ast.LiteralText;
import eu.vpki.terraform.hcl.Ast.Pos;
import eu.vpki.terraform.hcl.Ast.ScopeTraversal;
import eu.vpki.terraform.hcl.Ast.Template;
import eu.vpki.terraform.hcl.Ast.TemplatePart;
import eu.vpki.terraform.hcl.HclParseException;
import eu.vpki.terraform.hcl.HclParser;
import eu.vpki.terraform.checks.Checks.Located;
import eu.vpki.terraform.checks.Resolver.Constant;
import eu.vpki.terraform.checks.Resolver.Key;
import eu.vpki.terraform.checks.Resolver.Leaf;
import eu.vpki.terraform.checks.Resolver.Meta;
import eu.vpki.terraform.checks.Resolver.RootVariable;
import eu.vpki.terraform.checks.Resolver.TemplateCall;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The consistency mode reaches the services unchanged: the root variables replication_order and
 * replication_propagation are validated to TOTAL|FIFO and SYNC|ASYNC, and on every replica host (user data
 * whose environment has VPKI_REPLICATION_DISCOVERY) VPKI_REPLICATION_ORDER and VPKI_REPLICATION_PROPAGATION
 * are those variables, passed through references only, and the user data template writes every environment
 * entry as KEY=VALUE into the service's environment file.
 */
public final class ConsistencyCheck implements Check {

    static final Map<String, String> KEY_BY_VARIABLE = Map.of(
            "replication_order", "VPKI_REPLICATION_ORDER",
            "replication_propagation", "VPKI_REPLICATION_PROPAGATION");
    static final Map<String, Set<String>> ALLOWED = Map.of(
            "replication_order", Set.of("TOTAL", "FIFO"),
            "replication_propagation", Set.of("SYNC", "ASYNC"));
    static final String REPLICA_MARKER = "VPKI_REPLICATION_DISCOVERY";

    @Override
    public String id() {
        return "consistency";
    }

    @Override
    public List<Violation> run(Deployment d) {
        List<Violation> violations = new ArrayList<>();
        ALLOWED.forEach((variable, allowed) -> validation(d, variable, allowed, violations));

        int replicaHosts = 0;
        for (Located r : Checks.resources(d.root())) {
            Optional<Expr> userData = r.block().body().expr("user_data");
            if (userData.isEmpty()) {
                continue;
            }
            for (Leaf l : Resolver.leaves(userData.get(), r.env())) {
                if (l instanceof TemplateCall tc && tc.call().args().size() == 2 && replicaHost(r, tc, violations)) {
                    replicaHosts++;
                }
            }
        }
        if (replicaHosts == 0) {
            violations.add(new Violation(id(), new Pos(d.root().module().dir().resolve("main.tf"), 1),
                    "no replica host found: no user data template gets an environment with " + REPLICA_MARKER));
        }
        return violations;
    }

    private void validation(Deployment d, String variable, Set<String> allowed, List<Violation> violations) {
        Block v = d.root().module().variables().get(variable);
        if (v == null) {
            violations.add(new Violation(id(), new Pos(d.root().module().dir().resolve("variables.tf"), 1),
                    "the root module has no variable " + variable));
            return;
        }
        boolean restricted = v.body().blocks("validation").stream().anyMatch(val -> val.body().expr("condition").map(cond -> {
            Set<String> constants = new LinkedHashSet<>();
            boolean refersToVariable = false;
            for (Leaf l : Resolver.leaves(cond, Resolver.Env.of(d.root(), null))) {
                if (l instanceof Constant c && c.value() instanceof String s) {
                    constants.add(s);
                } else if (l instanceof RootVariable rv && rv.name().equals(variable)) {
                    refersToVariable = true;
                }
            }
            return refersToVariable && constants.equals(allowed);
        }).orElse(false));
        if (!restricted) {
            violations.add(new Violation(id(), v.pos(), "variable " + variable + " has no validation restricting it to "
                    + String.join("|", allowed)));
        }
    }

    /** Returns whether the template call is a replica host's; reports what is wrong with it. */
    private boolean replicaHost(Located r, TemplateCall tc, List<Violation> violations) {
        Expr vars = tc.call().args().get(1);
        boolean replica = !Resolver.leaves(vars, tc.env(), new Key("environment"), new Key(REPLICA_MARKER)).isEmpty();
        if (!replica) {
            return false;
        }
        KEY_BY_VARIABLE.forEach((variable, key) -> {
            List<Leaf> values = Resolver.leaves(vars, tc.env(), new Key("environment"), new Key(key)).stream()
                    .filter(l -> !(l instanceof Meta)).toList();
            if (values.isEmpty()) {
                violations.add(new Violation(id(), tc.pos(), r.describe() + ": replica environment has no " + key));
            }
            for (Leaf l : values) {
                boolean unchanged = l instanceof RootVariable rv && rv.name().equals(variable) && rv.steps().isEmpty() && rv.plain();
                if (!unchanged) {
                    violations.add(new Violation(id(), l.pos(), r.describe() + ": " + key + " is "
                            + (l instanceof RootVariable rv && rv.name().equals(variable) ? "derived from" : "not")
                            + " var." + variable + (l instanceof RootVariable ? "" : " but " + SecretsCheck.describe(l))
                            + "; it must be passed through unchanged"));
                }
            }
        });
        template(tc, r, id(), violations).ifPresent(t -> {
            if (SecretsCheck.forDirectives(t.parts()).stream().noneMatch(ConsistencyCheck::writesKeyValue)) {
                violations.add(new Violation(id(), tc.pos(), r.describe()
                        + ": the user data template does not write %{ for k, v in environment } ${k}=${v} %{ endfor }"));
            }
        });
        return true;
    }

    private static boolean writesKeyValue(ForDirective f) {
        if (!(f.collection() instanceof ScopeTraversal c && c.root().equals("environment") && c.steps().isEmpty())
                || f.keyVar() == null) {
            return false;
        }
        List<TemplatePart> body = f.body();
        for (int i = 0; i + 2 < body.size(); i++) {
            if (isName(body.get(i), f.keyVar()) && body.get(i + 1) instanceof LiteralText eq && eq.text().equals("=")
                    && isName(body.get(i + 2), f.valueVar())) {
                return true;
            }
        }
        return false;
    }

    private static boolean isName(TemplatePart p, String name) {
        return p instanceof Interpolation in && in.expr() instanceof ScopeTraversal t && t.root().equals(name)
                && t.steps().isEmpty();
    }

    /** Parses the template file of a templatefile call whose path is "${path.module}/..." or a constant. */
    static Optional<Template> template(TemplateCall tc, Located r, String check, List<Violation> violations) {
        Expr pathExpr = tc.call().args().get(0);
        Path dir = tc.env().module().module().dir();
        StringBuilder path = new StringBuilder();
        boolean resolved = pathExpr instanceof Template t && t.parts().stream().allMatch(p -> {
            if (p instanceof LiteralText lt) {
                path.append(lt.text());
                return true;
            }
            if (p instanceof Interpolation in && Checks.isReference(in.expr(), "path", "module")) {
                path.append(dir);
                return true;
            }
            return false;
        });
        if (!resolved) {
            violations.add(new Violation(check, tc.pos(), r.describe() + ": cannot resolve the template path"));
            return Optional.empty();
        }
        Path file = dir.resolve(path.toString()).normalize();
        if (!Files.isRegularFile(file)) {
            violations.add(new Violation(check, tc.pos(), r.describe() + ": template " + file + " does not exist"));
            return Optional.empty();
        }
        try {
            return Optional.of(HclParser.parseTemplateFile(file));
        } catch (HclParseException e) {
            violations.add(new Violation(check, tc.pos(), r.describe() + ": " + e.getMessage()));
            return Optional.empty();
        }
    }
}
