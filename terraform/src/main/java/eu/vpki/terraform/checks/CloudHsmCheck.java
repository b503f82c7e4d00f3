package eu.vpki.terraform.checks;

import eu.vpki.terraform.checks.Checks.Located;
import eu.vpki.terraform.checks.Resolver.Constant;
import eu.vpki.terraform.checks.Resolver.Key;
import eu.vpki.terraform.checks.Resolver.KeyName;
import eu.vpki.terraform.checks.Resolver.Leaf;
import eu.vpki.terraform.checks.Resolver.ResourceRef;
import eu.vpki.terraform.checks.Resolver.RootVariable;
import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Conditional;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.Literal;
import eu.vpki.terraform.hcl.Ast.ObjectCons;
import eu.vpki.terraform.hcl.Ast.Parens;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The AWS CloudHSM option (root variable {@code cloudhsm}, issue #36) is off by default, creates nothing unless it is
 * on, cannot be on with a brainpool curve, and when on reaches every host holding authority keys:
 * <ul>
 * <li>the root variable {@code cloudhsm} defaults to {@code enabled = false}, and one of its validations ties it to
 * {@code authority_curve = "nistP256"} (CloudHSM has no brainpool curve);</li>
 * <li>every {@code aws_cloudhsm_v2_*} resource has {@code count = var.cloudhsm.enabled ? ... : 0} (through the module
 * arguments), and every cluster a lifecycle precondition on {@code authority_curve} and {@code "nistP256"};</li>
 * <li>every host of the RCA, an EA or an AA (module host-config with service rca, ea or aa) is given the cluster's
 * client ({@code cloudhsm.cluster_id} from an {@code aws_cloudhsm_v2_cluster}), an environment that can set
 * {@code VPKI_KEYSTORE_BACKEND = "pkcs11"} and {@code VPKI_KEYSTORE_PKCS11_LIBRARY}, and the PIN through
 * {@code secret_files} ({@code VPKI_KEYSTORE_PKCS11_PIN_FILE}, never in the environment: {@link SecretsCheck});</li>
 * <li>every instance or launch template whose user data is such a host's can be in the cluster's security group
 * ({@code vpc_security_group_ids} reaches an {@code aws_cloudhsm_v2_cluster}'s {@code security_group_id}).</li>
 * </ul>
 * The resolver follows both branches of a conditional, so the wiring rules say "can", which is what a
 * configuration that leaves the option out or wires it to the wrong place fails.
 */
public final class CloudHsmCheck implements Check {
    static final String VARIABLE = "cloudhsm";
    static final String CURVE_VARIABLE = "authority_curve";
    static final String CURVE = "nistP256";
    static final Set<String> KEY_HOLDERS = Set.of("rca", "ea", "aa");
    static final String CLUSTER = "aws_cloudhsm_v2_cluster";

    @Override
    public String id() {
        return "cloudhsm";
    }

    @Override
    public List<Violation> run(Deployment d) {
        List<Violation> out = new ArrayList<>();
        rootVariable(d, out);
        List<String> keyHostModules = new ArrayList<>();
        for (Located r : Checks.resources(d.root())) {
            Block b = r.block();
            if (b.label(0).startsWith("aws_cloudhsm_v2_")) {
                gated(r, out);
                if (b.label(0).equals(CLUSTER) && !hasCurvePrecondition(r)) {
                    out.add(new Violation(id(), b.pos(), r.describe() + " has no lifecycle precondition requiring " + CURVE_VARIABLE
                            + " = \"" + CURVE + "\" (CloudHSM has no brainpool curve)"));
                }
            }
        }
        for (ModuleInstance m : d.root().tree()) {
            if (m.call().isEmpty() || !m.module().dir().endsWith("modules/host-config")) {
                continue;
            }
            Block call = m.call().get();
            Resolver.Env env = Resolver.Env.of(m.parent().orElseThrow(), call);
            List<String> services = call.body().expr("service").map(e -> constants(Resolver.leaves(e, env))).orElse(List.of());
            if (services.stream().noneMatch(KEY_HOLDERS::contains)) {
                continue;
            }
            keyHostModules.add(m.address());
            String who = m.address() + " (" + services + ")";
            boolean client = call.body().expr("cloudhsm")
                    .map(e -> Resolver.leaves(e, env, new Key("cluster_id")).stream()
                            .anyMatch(l -> l instanceof ResourceRef ref && ref.type().equals(CLUSTER)))
                    .orElse(false);
            if (!client) {
                out.add(new Violation(id(), call.pos(), who + " holds authority keys but is not given the CloudHSM client (cloudhsm = "
                        + "{ cluster_id = an " + CLUSTER + "'s, ... })"));
            }
            Optional<Expr> environment = call.body().expr("environment");
            boolean backend = environment.map(e -> constants(Resolver.leaves(e, env, new Key("VPKI_KEYSTORE_BACKEND"))).contains("pkcs11"))
                    .orElse(false);
            if (!backend) {
                out.add(new Violation(id(), call.pos(), who + ": environment never sets VPKI_KEYSTORE_BACKEND = \"pkcs11\""));
            }
            boolean library = environment.map(e -> keys(Resolver.leaves(e, env, Resolver.KEYS)).contains("VPKI_KEYSTORE_PKCS11_LIBRARY"))
                    .orElse(false);
            if (!library) {
                out.add(new Violation(id(), call.pos(), who + ": environment never sets VPKI_KEYSTORE_PKCS11_LIBRARY"));
            }
            boolean pin = call.body().expr("secret_files")
                    .map(e -> keys(Resolver.leaves(e, env, Resolver.KEYS)).contains("VPKI_KEYSTORE_PKCS11_PIN_FILE")).orElse(false);
            if (!pin) {
                out.add(new Violation(id(), call.pos(),
                        who + ": secret_files never gives VPKI_KEYSTORE_PKCS11_PIN_FILE (the crypto user's PIN)"));
            }
        }
        for (Checks.UserData u : Checks.userData(d.root())) {
            Block b = u.resource().block();
            String module = u.call().env().module().address();
            if (!keyHostModules.contains(module)) {
                continue;
            }
            boolean joins = b.body().expr("vpc_security_group_ids")
                    .map(e -> Resolver.leaves(e, u.resource().env()).stream()
                            .anyMatch(l -> l instanceof ResourceRef ref && ref.type().equals(CLUSTER)))
                    .orElse(false);
            if (!joins) {
                out.add(new Violation(id(), b.pos(), u.resource().describe() + " runs " + module
                        + " but vpc_security_group_ids never includes the CloudHSM cluster's security group"));
            }
        }
        return out;
    }

    /** The root variable: off by default, tied to nistP256. */
    private void rootVariable(Deployment d, List<Violation> out) {
        Block variable = d.root().module().variables().get(VARIABLE);
        if (variable == null) {
            return; // no option at all: nothing to check (the resources, if any, are then not gated and reported)
        }
        Optional<Expr> enabled = variable.body().expr("default").map(CloudHsmCheck::unwrap)
                .filter(ObjectCons.class::isInstance).map(o -> (ObjectCons) o)
                .flatMap(o -> o.items().stream().filter(i -> i.constantKey().equals(Optional.of("enabled"))).findFirst())
                .map(i -> unwrap(i.value()));
        if (!(enabled.orElse(null) instanceof Literal l && Boolean.FALSE.equals(l.value()))) {
            out.add(new Violation(id(), variable.pos(), "variable " + VARIABLE + " is not off by default (default = { enabled = false })"));
        }
        boolean tied = variable.body().blocks("validation").stream().anyMatch(v -> v.body().expr("condition").map(c -> {
            List<Leaf> leaves = Resolver.leaves(c, Resolver.Env.of(d.root(), variable));
            return mentionsCurve(leaves);
        }).orElse(false));
        if (!tied) {
            out.add(new Violation(id(), variable.pos(), "variable " + VARIABLE + " has no validation requiring " + CURVE_VARIABLE + " = \""
                    + CURVE + "\" when enabled"));
        }
    }

    /** {@code count = <var.cloudhsm.enabled> ? n : 0}, the condition a plain reference to the root variable's enabled. */
    private void gated(Located r, List<Violation> out) {
        Optional<Expr> count = r.block().body().expr("count").map(CloudHsmCheck::unwrap);
        boolean ok = count.filter(Conditional.class::isInstance).map(c -> (Conditional) c).map(c -> {
            List<Leaf> condition = Resolver.leaves(c.condition(), r.env());
            boolean onEnabled = !condition.isEmpty() && condition.stream().allMatch(l -> l instanceof RootVariable v && v.plain()
                    && v.name().equals(VARIABLE) && v.steps().equals(List.of(new Key("enabled"))));
            return onEnabled && unwrap(c.otherwise()) instanceof Literal l && l.value() instanceof BigDecimal n && n.signum() == 0;
        }).orElse(false);
        if (!ok) {
            out.add(new Violation(id(), r.block().pos(), r.describe() + " is not gated by the option: count must be var."
                    + VARIABLE + ".enabled ? ... : 0"));
        }
    }

    private static boolean hasCurvePrecondition(Located r) {
        return r.block().body().blocks("lifecycle").stream().flatMap(l -> l.body().blocks("precondition").stream())
                .anyMatch(p -> p.body().expr("condition").map(c -> mentionsCurve(Resolver.leaves(c, r.env()))).orElse(false));
    }

    private static boolean mentionsCurve(List<Leaf> leaves) {
        return leaves.stream().anyMatch(l -> l instanceof RootVariable v && v.name().equals(CURVE_VARIABLE))
                && leaves.stream().anyMatch(l -> l instanceof Constant c && CURVE.equals(String.valueOf(c.value())));
    }

    private static Expr unwrap(Expr e) {
        return e instanceof Parens p ? unwrap(p.inner()) : e;
    }

    private static List<String> constants(List<Leaf> leaves) {
        return leaves.stream().filter(Constant.class::isInstance).map(l -> String.valueOf(((Constant) l).value())).distinct().toList();
    }

    private static List<String> keys(List<Leaf> leaves) {
        return leaves.stream().filter(KeyName.class::isInstance).map(l -> ((KeyName) l).name()).distinct().toList();
    }
}
