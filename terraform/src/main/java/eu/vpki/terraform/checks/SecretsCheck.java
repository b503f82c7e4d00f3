package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.ForDirective;
import eu.vpki.terraform.hcl.Ast.GetAttr;
import eu.vpki.terraform.hcl.Ast.IfDirective;
import eu.vpki.terraform.hcl.Ast.Interpolation;
import eu.vpki.terraform.hcl.Ast.LiteralText;
import eu.vpki.terraform.hcl.Ast.ScopeTraversal;
import eu.vpki.terraform.hcl.Ast.Template;
import eu.vpki.terraform.hcl.Ast.TemplatePart;
import eu.vpki.terraform.checks.Checks.Located;
import eu.vpki.terraform.checks.Resolver.Env;
import eu.vpki.terraform.checks.Resolver.KeyName;
import eu.vpki.terraform.checks.Resolver.Leaf;
import eu.vpki.terraform.checks.Resolver.Meta;
import eu.vpki.terraform.checks.Resolver.ResourceRef;
import eu.vpki.terraform.checks.Resolver.TemplateCall;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Every secret comes from Secrets Manager and never sits in variables or state in plain text:
 * <ul>
 * <li>variables named like a credential are {@code sensitive = true} and have no default;</li>
 * <li>no aws_secretsmanager_secret_version sets secret_string or secret_binary (they are stored in the state);</li>
 * <li>every {@code secret_files} entry a host is given names its secret through an aws_secretsmanager_secret,
 * and the rendered user data fetches each one with {@code aws secretsmanager get-secret-value};</li>
 * <li>no host's {@code environment} sets a secret-bearing configuration key itself (the plain-value keys
 * VPKI_KEYSTORE_PASSWORD and VPKI_ADMIN_TOKEN, or the file keys, which only secret_files may set).</li>
 * </ul>
 */
public final class SecretsCheck implements Check {

    static final Pattern CREDENTIAL_NAME = Pattern.compile("(?i).*(password|passphrase|token|credential|private_key).*");
    static final Set<String> PLAIN_SECRET_KEYS = Set.of("VPKI_KEYSTORE_PASSWORD", "VPKI_ADMIN_TOKEN");
    static final Set<String> SECRET_FILE_KEYS = Set.of(
            "VPKI_KEYSTORE_PATH", "VPKI_KEYSTORE_PASSWORD_FILE", "VPKI_ADMIN_TOKEN_FILE", "VPKI_OPERATOR_CREDENTIALS_FILE");
    static final Set<String> SECRET_TYPES = Set.of("aws_secretsmanager_secret");
    static final String FETCH_COMMAND = "aws secretsmanager get-secret-value";

    @Override
    public String id() {
        return "secrets";
    }

    @Override
    public List<Violation> run(Deployment d) {
        List<Violation> violations = new ArrayList<>();
        Set<TfModule> seen = new HashSet<>();
        for (ModuleInstance m : d.root().tree()) {
            if (seen.add(m.module())) {
                variables(m.module(), violations);
            }
            for (Block call : m.module().moduleCalls().values()) {
                hostCall(m, call, violations);
            }
        }
        for (Located r : Checks.resources(d.root())) {
            if (r.block().label(0).equals("aws_secretsmanager_secret_version")) {
                for (String attr : List.of("secret_string", "secret_binary")) {
                    if (r.block().body().attribute(attr).isPresent()) {
                        violations.add(new Violation(id(), r.block().pos(), r.describe() + " sets " + attr
                                + ", which Terraform keeps in the state; put the value out of band"));
                    }
                }
            }
            r.block().body().expr("user_data").ifPresent(ud -> Resolver.leaves(ud, r.env()).stream()
                    .filter(TemplateCall.class::isInstance).map(TemplateCall.class::cast)
                    .forEach(tc -> fetchesSecretFiles(r, tc, violations)));
        }
        return violations;
    }

    private void variables(TfModule m, List<Violation> violations) {
        m.variables().forEach((name, v) -> {
            if (!CREDENTIAL_NAME.matcher(name).matches()) {
                return;
            }
            if (!Checks.booleanAttribute(v, "sensitive").orElse(false)) {
                violations.add(new Violation(id(), v.pos(), "variable " + name + " looks like a credential but is not sensitive = true"));
            }
            if (v.body().attribute("default").isPresent()) {
                violations.add(new Violation(id(), v.pos(), "variable " + name
                        + " looks like a credential but has a default; credentials come from Secrets Manager"));
            }
        });
    }

    /** Checks the secret_files and environment arguments of a module call that has them. */
    private void hostCall(ModuleInstance m, Block call, List<Violation> violations) {
        Env env = Env.of(m, call);
        String where = (m.call().isEmpty() ? "" : m.address() + ".") + "module." + call.label(0);
        call.body().expr("secret_files").ifPresent(files -> {
            List<Leaf> ids = Resolver.leaves(files, env, Resolver.ANY, new Resolver.Key("secret_id"));
            List<Leaf> data = ids.stream().filter(l -> !(l instanceof Meta)).toList();
            if (data.isEmpty()) {
                violations.add(new Violation(id(), call.pos(), where + ": secret_files names no secret_id"));
            }
            for (Leaf l : data) {
                if (!(l instanceof ResourceRef ref && SECRET_TYPES.contains(ref.type()))) {
                    violations.add(new Violation(id(), l.pos(), where + ": a secret_id comes from " + describe(l)
                            + ", not from an aws_secretsmanager_secret"));
                }
            }
        });
        call.body().expr("environment").ifPresent(environment -> {
            for (Leaf l : Resolver.leaves(environment, env, Resolver.KEYS)) {
                if (l instanceof KeyName k && PLAIN_SECRET_KEYS.contains(k.name())) {
                    violations.add(new Violation(id(), l.pos(), where + ": environment sets " + k.name()
                            + " in plain text; use the file key through secret_files"));
                } else if (l instanceof KeyName k && SECRET_FILE_KEYS.contains(k.name())) {
                    violations.add(new Violation(id(), l.pos(), where + ": environment sets " + k.name()
                            + " itself; only secret_files (fetched from Secrets Manager) may"));
                }
            }
        });
    }

    /** The template given secret_files must fetch each with the Secrets Manager CLI, by its secret_id. */
    private void fetchesSecretFiles(Located r, TemplateCall tc, List<Violation> violations) {
        if (tc.call().args().size() != 2 || Resolver.leaves(tc.call().args().get(1), tc.env(),
                new Resolver.Key("secret_files")).isEmpty()) {
            return;
        }
        Optional<Template> template = ConsistencyCheck.template(tc, r, id(), violations);
        if (template.isEmpty()) {
            return;
        }
        boolean fetches = forDirectives(template.get().parts()).stream().anyMatch(f ->
                f.collection() instanceof ScopeTraversal c && c.root().equals("secret_files") && c.steps().isEmpty()
                        && fetchesById(f));
        if (!fetches) {
            violations.add(new Violation(id(), tc.pos(), r.describe() + ": the user data template does not fetch every "
                    + "secret_files entry with '" + FETCH_COMMAND + " ... ${<entry>.secret_id}'"));
        }
    }

    private static boolean fetchesById(ForDirective f) {
        boolean commandSeen = false;
        for (TemplatePart p : f.body()) {
            if (p instanceof LiteralText t && t.text().contains(FETCH_COMMAND)) {
                commandSeen = true;
            } else if (commandSeen && p instanceof Interpolation in && isAttributeOf(in.expr(), f.valueVar(), "secret_id")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isAttributeOf(Expr e, String root, String attr) {
        return e instanceof ScopeTraversal t && t.root().equals(root) && t.steps().size() == 1
                && t.steps().get(0) instanceof GetAttr g && g.name().equals(attr);
    }

    static List<ForDirective> forDirectives(List<TemplatePart> parts) {
        List<ForDirective> all = new ArrayList<>();
        for (TemplatePart p : parts) {
            if (p instanceof ForDirective f) {
                all.add(f);
                all.addAll(forDirectives(f.body()));
            } else if (p instanceof IfDirective i) {
                all.addAll(forDirectives(i.then()));
                all.addAll(forDirectives(i.otherwise()));
            }
        }
        return all;
    }

    static String describe(Leaf l) {
        if (l instanceof ResourceRef r) {
            return (r.data() ? "data." : "") + r.type() + "." + r.name();
        }
        if (l instanceof Resolver.Constant c) {
            return "the constant \"" + c.value() + "\"";
        }
        if (l instanceof Resolver.RootVariable v) {
            return "var." + v.name() + " of the root module";
        }
        if (l instanceof Resolver.Opaque o) {
            return o.why();
        }
        return l.toString();
    }
}
