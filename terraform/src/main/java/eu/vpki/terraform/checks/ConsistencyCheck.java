package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.ForExpr;
import eu.vpki.terraform.hcl.Ast.Interpolation;
import eu.vpki.terraform.hcl.Ast.LiteralText;
import eu.vpki.terraform.hcl.Ast.Pos;
import eu.vpki.terraform.hcl.Ast.ScopeTraversal;
import eu.vpki.terraform.hcl.Ast.Template;
import eu.vpki.terraform.hcl.Ast.TemplatePart;
import eu.vpki.terraform.checks.Checks.UserData;
import eu.vpki.terraform.checks.Resolver.Constant;
import eu.vpki.terraform.checks.Resolver.ForIn;
import eu.vpki.terraform.checks.Resolver.Key;
import eu.vpki.terraform.checks.Resolver.Leaf;
import eu.vpki.terraform.checks.Resolver.Meta;
import eu.vpki.terraform.checks.Resolver.RootVariable;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The consistency mode reaches the services unchanged: the root variables replication_order and
 * replication_propagation are validated to TOTAL|FIFO and SYNC|ASYNC, and on every replica host (user data
 * writing an environment with VPKI_REPLICATION_DISCOVERY) VPKI_REPLICATION_ORDER and VPKI_REPLICATION_PROPAGATION
 * are those variables, passed through references only. Every host's user data writes its environment as
 * KEY=VALUE lines: the template interpolates a variable built from {@code [for k, v in environment : "${k}=${v}"]},
 * and the environment it reads is the one checked.
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
        for (UserData u : Checks.userData(d.root())) {
            Optional<List<ForIn>> loops = Checks.writtenLoops(u, id(), violations);
            if (loops.isEmpty()) {
                continue;
            }
            List<ForIn> environmentFiles = loops.get().stream().filter(ConsistencyCheck::writesKeyValue).toList();
            if (environmentFiles.isEmpty()) {
                violations.add(new Violation(id(), u.call().pos(), u.resource().describe()
                        + ": the user data template writes no [for k, v in <environment> : \"${k}=${v}\"]"));
            }
            boolean replica = false;
            for (ForIn f : environmentFiles) {
                replica |= replicaEnvironment(u, f.expr().collection(), f.env(), violations);
            }
            if (replica) {
                replicaHosts++;
            }
        }
        if (replicaHosts == 0) {
            violations.add(new Violation(id(), new Pos(d.root().module().dir().resolve("main.tf"), 1),
                    "no replica host found: no user data writes an environment with " + REPLICA_MARKER));
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

    /** Returns whether the environment written is a replica host's; reports what is wrong with it. */
    private boolean replicaEnvironment(UserData u, Expr environment, Resolver.Env env, List<Violation> violations) {
        if (Resolver.leaves(environment, env, new Key(REPLICA_MARKER)).isEmpty()) {
            return false;
        }
        String where = u.resource().describe();
        KEY_BY_VARIABLE.forEach((variable, key) -> {
            List<Leaf> values = Resolver.leaves(environment, env, new Key(key)).stream()
                    .filter(l -> !(l instanceof Meta)).toList();
            if (values.isEmpty()) {
                violations.add(new Violation(id(), u.call().pos(), where + ": replica environment has no " + key));
            }
            for (Leaf l : values) {
                boolean unchanged = l instanceof RootVariable rv && rv.name().equals(variable) && rv.steps().isEmpty() && rv.plain();
                if (!unchanged) {
                    violations.add(new Violation(id(), l.pos(), where + ": " + key + " is "
                            + (l instanceof RootVariable rv && rv.name().equals(variable) ? "derived from" : "not")
                            + " var." + variable + (l instanceof RootVariable ? "" : " but " + SecretsCheck.describe(l))
                            + "; it must be passed through unchanged"));
                }
            }
        });
        return true;
    }

    /** {@code [for k, v in c : "${k}=${v}"]}: every entry of c, written as KEY=VALUE. */
    private static boolean writesKeyValue(ForIn f) {
        ForExpr e = f.expr();
        return e.keyExpr() == null && e.keyVar() != null && e.condition() == null
                && e.valueExpr() instanceof Template t && t.parts().size() == 3
                && isName(t.parts().get(0), e.keyVar())
                && t.parts().get(1) instanceof LiteralText eq && eq.text().equals("=")
                && isName(t.parts().get(2), e.valueVar());
    }

    private static boolean isName(TemplatePart p, String name) {
        return p instanceof Interpolation in && in.expr() instanceof ScopeTraversal t && t.root().equals(name)
                && t.steps().isEmpty();
    }
}
