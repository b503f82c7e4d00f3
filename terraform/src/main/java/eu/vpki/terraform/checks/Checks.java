package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.GetAttr;
import eu.vpki.terraform.hcl.Ast.Interpolation;
import eu.vpki.terraform.hcl.Ast.Literal;
import eu.vpki.terraform.hcl.Ast.LiteralText;
import eu.vpki.terraform.hcl.Ast.ObjectCons;
import eu.vpki.terraform.hcl.Ast.ScopeTraversal;
import eu.vpki.terraform.hcl.Ast.Template;
import eu.vpki.terraform.hcl.Ast.TemplatePart;
import eu.vpki.terraform.hcl.HclParseException;
import eu.vpki.terraform.hcl.HclReader;
import eu.vpki.terraform.checks.Resolver.ForIn;
import eu.vpki.terraform.checks.Resolver.TemplateCall;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The checks of the AWS deployment, and helpers they share. */
public final class Checks {

    private Checks() {
    }

    public static List<Check> all() {
        return List.of(new RegionsCheck(), new IngressCheck(), new SecretsCheck(), new ConsistencyCheck(), new ManagementPortCheck(),
                new ListenerTlsCheck(), new CloudHsmCheck());
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

    /** A templatefile(path, vars) call that a resource's user_data can be. */
    record UserData(Located resource, TemplateCall call) {
    }

    /** Every templatefile call with two arguments that some resource's user_data can evaluate to. */
    static List<UserData> userData(ModuleInstance root) {
        List<UserData> all = new ArrayList<>();
        for (Located r : resources(root)) {
            r.block().body().expr("user_data").ifPresent(ud -> Resolver.leaves(ud, r.env()).stream()
                    .filter(l -> l instanceof TemplateCall tc && tc.call().args().size() == 2)
                    .forEach(l -> all.add(new UserData(r, (TemplateCall) l))));
        }
        return all;
    }

    /**
     * The for expressions whose results the user data template writes out: those that build a template
     * variable the template interpolates ({@code ${name}}). Empty, with a violation, when the template or
     * its variables cannot be read.
     */
    static Optional<List<ForIn>> writtenLoops(UserData u, String check, List<Violation> violations) {
        Optional<Template> template = template(u, check, violations);
        if (template.isEmpty()) {
            return Optional.empty();
        }
        if (!(u.call().call().args().get(1) instanceof ObjectCons vars)) {
            violations.add(new Violation(check, u.call().pos(), u.resource().describe()
                    + ": the template variables are not written as an object { name = value, ... }"));
            return Optional.empty();
        }
        List<ForIn> loops = new ArrayList<>();
        for (TemplatePart p : template.get().parts()) {
            if (p instanceof Interpolation in && in.expr() instanceof ScopeTraversal t && t.steps().isEmpty()) {
                vars.items().stream().filter(i -> i.constantKey().equals(Optional.of(t.root())))
                        .forEach(i -> loops.addAll(Resolver.forExpressions(i.value(), u.call().env())));
            }
        }
        return Optional.of(loops);
    }

    /** Parses the template file of a templatefile call whose path is "${path.module}/..." or a constant. */
    static Optional<Template> template(UserData u, String check, List<Violation> violations) {
        TemplateCall tc = u.call();
        Expr pathExpr = tc.call().args().get(0);
        Path dir = tc.env().module().module().dir();
        StringBuilder path = new StringBuilder();
        boolean resolved = pathExpr instanceof Template t && t.parts().stream().allMatch(p -> {
            if (p instanceof LiteralText lt) {
                path.append(lt.text());
                return true;
            }
            if (p instanceof Interpolation in && isReference(in.expr(), "path", "module")) {
                path.append(dir);
                return true;
            }
            return false;
        });
        if (!resolved) {
            violations.add(new Violation(check, tc.pos(), u.resource().describe() + ": cannot resolve the template path"));
            return Optional.empty();
        }
        Path file = dir.resolve(path.toString()).normalize();
        if (!Files.isRegularFile(file)) {
            violations.add(new Violation(check, tc.pos(), u.resource().describe() + ": template " + file + " does not exist"));
            return Optional.empty();
        }
        try {
            return Optional.of(HclReader.readTemplateFile(file));
        } catch (HclParseException e) {
            violations.add(new Violation(check, tc.pos(), u.resource().describe() + ": " + e.getMessage()));
            return Optional.empty();
        }
    }
}
