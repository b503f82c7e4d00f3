package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.Literal;
import eu.vpki.terraform.hcl.Ast.ScopeTraversal;
import eu.vpki.terraform.hcl.Ast.GetAttr;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The checks of the AWS deployment, and helpers they share. */
public final class Checks {

    private Checks() {
    }

    public static List<Check> all() {
        return List.of(new RegionsCheck(), new IngressCheck(), new SecretsCheck(), new ConsistencyCheck());
    }

    public static List<Violation> runAll(Deployment deployment) {
        List<Violation> all = new ArrayList<>();
        all().forEach(c -> all.addAll(c.run(deployment)));
        return all;
    }

    /** Whether e is exactly {@code root.name} (e.g. {@code var.region}, {@code each.key}). */
    static boolean isReference(Expr e, String root, String name) {
        return e instanceof ScopeTraversal t && t.root().equals(root) && t.steps().size() == 1
                && t.steps().get(0) instanceof GetAttr g && g.name().equals(name);
    }

    static Optional<Boolean> booleanAttribute(Block b, String name) {
        return b.body().expr(name).filter(Literal.class::isInstance).map(e -> ((Literal) e).value())
                .filter(Boolean.class::isInstance).map(Boolean.class::cast);
    }

    /** Every resource block of every module instance, with the instance it is evaluated in. */
    static List<Located> resources(ModuleInstance root) {
        List<Located> all = new ArrayList<>();
        for (ModuleInstance m : root.tree()) {
            m.module().resources().forEach(r -> all.add(new Located(m, r)));
        }
        return all;
    }

    record Located(ModuleInstance module, Block block) {
        Resolver.Env env() {
            return Resolver.Env.of(module, block);
        }

        String describe() {
            return (module.call().isEmpty() ? "" : module.address() + ".") + TfModule.address(block);
        }
    }
}
