package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.Conditional;
import eu.vpki.terraform.hcl.Ast.ForExpr;
import eu.vpki.terraform.hcl.Ast.FunctionCall;
import eu.vpki.terraform.hcl.Ast.GetAttr;
import eu.vpki.terraform.hcl.Ast.Interpolation;
import eu.vpki.terraform.hcl.Ast.LiteralText;
import eu.vpki.terraform.hcl.Ast.Parens;
import eu.vpki.terraform.hcl.Ast.ScopeTraversal;
import eu.vpki.terraform.hcl.Ast.Template;
import eu.vpki.terraform.hcl.Ast.TemplatePart;
import eu.vpki.terraform.hcl.Ast.Tuple;
import eu.vpki.terraform.checks.Checks.Located;
import eu.vpki.terraform.checks.Checks.UserData;
import eu.vpki.terraform.checks.Resolver.Env;
import eu.vpki.terraform.checks.Resolver.ForIn;
import eu.vpki.terraform.checks.Resolver.KeyName;
import eu.vpki.terraform.checks.Resolver.Leaf;
import eu.vpki.terraform.checks.Resolver.Meta;
import eu.vpki.terraform.checks.Resolver.ResourceRef;

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
 * and the host's user data fetches each one with {@code aws secretsmanager get-secret-value} by that
 * secret_id (a for expression over secret_files, written out by the template);</li>
 * <li>no host's {@code environment} sets a secret-bearing configuration key itself (the plain-value keys
 * VPKI_KEYSTORE_PASSWORD, VPKI_ADMIN_TOKEN and VPKI_REDIS_PASSWORD, or the file keys, which only secret_files may set);</li>
 * <li>a host serving a bearer-token API (service {@code rca} or {@code operator}) speaks TLS only: its environment sets
 * SERVER_SSL_BUNDLE and its secret_files give the bundle's certificate and private key
 * ({@value #TLS_CERTIFICATE}, {@value #TLS_PRIVATE_KEY});</li>
 * <li>a host running its own Redis ({@code redis = true}) gets the Redis password through secret_files
 * ({@value #REDIS_PASSWORD_FILE}), the secret its Redis asks for;</li>
 * <li>a replica host (its environment sets a {@value #REPLICA_KEY_PREFIX}* key) gets the replication channel's
 * credentials through secret_files: its key store, the trust store and their password ({@link #REPLICATION_TLS_KEYS}),
 * so that its JGroups transport runs mutual TLS and its commands are signed (docs/security.md, "JGroups channel").</li>
 * </ul>
 */
public final class SecretsCheck implements Check {

    static final Pattern CREDENTIAL_NAME = Pattern.compile("(?i).*(password|passphrase|token|credential|private_key).*");
    static final String TLS_BUNDLE = "SERVER_SSL_BUNDLE";
    static final String TLS_CERTIFICATE = "SPRING_SSL_BUNDLE_PEM_API_KEYSTORE_CERTIFICATE";
    static final String TLS_PRIVATE_KEY = "SPRING_SSL_BUNDLE_PEM_API_KEYSTORE_PRIVATE_KEY";
    static final String REDIS_PASSWORD_FILE = "VPKI_REDIS_PASSWORD_FILE";
    /** The services whose port carries a bearer-token API (RCA admin, Operator). */
    static final Set<String> BEARER_SERVICES = Set.of("rca", "operator");
    /** An environment key with this prefix makes a host a replica of the group. */
    static final String REPLICA_KEY_PREFIX = "VPKI_REPLICATION_";
    static final String REPLICATION_KEY_STORE = "VPKI_REPLICATION_TLS_KEY_STORE";
    static final String REPLICATION_PASSWORD_FILE = "VPKI_REPLICATION_TLS_PASSWORD_FILE";
    /** The replication channel's credentials every replica host fetches. */
    static final List<String> REPLICATION_TLS_KEYS = List.of(REPLICATION_KEY_STORE, "VPKI_REPLICATION_TLS_TRUST_STORE",
            REPLICATION_PASSWORD_FILE);
    static final Set<String> PLAIN_SECRET_KEYS = Set.of("VPKI_KEYSTORE_PASSWORD", "VPKI_ADMIN_TOKEN", "VPKI_REDIS_PASSWORD",
            "VPKI_REPLICATION_TLS_PASSWORD");
    static final Set<String> SECRET_FILE_KEYS = Set.of(
            "VPKI_KEYSTORE_PATH", "VPKI_KEYSTORE_PASSWORD_FILE", "VPKI_ADMIN_TOKEN_FILE", "VPKI_OPERATOR_CREDENTIALS_FILE",
            REDIS_PASSWORD_FILE, TLS_PRIVATE_KEY, REPLICATION_KEY_STORE, REPLICATION_PASSWORD_FILE);
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
        }
        Checks.userData(d.root()).forEach(u -> fetchesSecretFiles(u, violations));
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
        Set<String> fileKeys = keys(call.body().expr("secret_files"), env);
        Set<String> environmentKeys = keys(call.body().expr("environment"), env);
        Set<Object> service = constants(call.body().expr("service"), env);
        if (service.stream().anyMatch(BEARER_SERVICES::contains)) {
            if (!environmentKeys.contains(TLS_BUNDLE)) {
                violations.add(new Violation(id(), call.pos(), where + ": serves a bearer-token API (" + service
                        + ") without " + TLS_BUNDLE + ": its tokens would cross the network in clear"));
            }
            for (String key : List.of(TLS_CERTIFICATE, TLS_PRIVATE_KEY)) {
                if (!fileKeys.contains(key)) {
                    violations.add(new Violation(id(), call.pos(), where + ": serves a bearer-token API (" + service
                            + ") but secret_files gives no " + key + " (the TLS certificate and key come from Secrets Manager)"));
                }
            }
        }
        if (constants(call.body().expr("redis"), env).stream().anyMatch(v -> Boolean.TRUE.equals(v) || "true".equals(v))
                && !fileKeys.contains(REDIS_PASSWORD_FILE)) {
            violations.add(new Violation(id(), call.pos(), where + ": runs its own Redis but secret_files gives no "
                    + REDIS_PASSWORD_FILE + " (the password that Redis asks for)"));
        }
        if (environmentKeys.stream().anyMatch(k -> k.startsWith(REPLICA_KEY_PREFIX))) {
            for (String key : REPLICATION_TLS_KEYS) {
                if (!fileKeys.contains(key)) {
                    violations.add(new Violation(id(), call.pos(), where + ": a replica host without " + key + " in its secret_files"
                            + " (its JGroups transport would run without TLS and its commands unsigned, or it would not start)"));
                }
            }
        }
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

    /** The key names a map expression can have (none for an absent one). */
    private static Set<String> keys(Optional<Expr> map, Env env) {
        Set<String> out = new HashSet<>();
        map.ifPresent(m -> Resolver.leaves(m, env, Resolver.KEYS).stream().filter(KeyName.class::isInstance)
                .forEach(l -> out.add(((KeyName) l).name())));
        return out;
    }

    /** The constant values an expression can take (strings as they are, booleans as Boolean). */
    private static Set<Object> constants(Optional<Expr> e, Env env) {
        Set<Object> out = new HashSet<>();
        e.ifPresent(x -> Resolver.leaves(x, env).stream().filter(Resolver.Constant.class::isInstance)
                .forEach(l -> out.add(((Resolver.Constant) l).value())));
        return out;
    }

    /**
     * The user data of a module given secret_files (by its call) must fetch every entry with the Secrets Manager CLI, by its
     * secret_id: the template interpolates a variable built from {@code [for k, s in var.secret_files : ...]}
     * (no filter) whose text runs the fetch command with {@code ${s.secret_id}}.
     */
    private void fetchesSecretFiles(UserData u, List<Violation> violations) {
        ModuleInstance host = u.call().env().module();
        boolean given = host.call().flatMap(call -> call.body().expr("secret_files"))
                .map(files -> !Resolver.leaves(files, Env.of(host.parent().orElseThrow(), host.call().get()), Resolver.ANY).isEmpty())
                .orElse(false);
        if (!given) {
            return;
        }
        Optional<List<ForIn>> loops = Checks.writtenLoops(u, id(), violations);
        if (loops.isEmpty()) {
            return;
        }
        boolean fetches = loops.get().stream().map(ForIn::expr).anyMatch(f -> f.condition() == null
                && Checks.isReference(f.collection(), "var", "secret_files") && fetchesById(f));
        if (!fetches) {
            violations.add(new Violation(id(), u.call().pos(), u.resource().describe() + ": the user data does not fetch every "
                    + "secret_files entry with '" + FETCH_COMMAND + " ... ${<entry>.secret_id}'"));
        }
    }

    private static boolean fetchesById(ForExpr f) {
        for (Template t : templates(f.valueExpr(), new ArrayList<>())) {
            boolean commandSeen = false;
            for (TemplatePart p : t.parts()) {
                if (p instanceof LiteralText text && text.text().contains(FETCH_COMMAND)) {
                    commandSeen = true;
                } else if (commandSeen && p instanceof Interpolation in && isAttributeOf(in.expr(), f.valueVar(), "secret_id")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The string templates in e: itself, in function arguments, tuple elements, conditional branches. */
    private static List<Template> templates(Expr e, List<Template> out) {
        if (e instanceof Template t) {
            out.add(t);
        } else if (e instanceof FunctionCall fc) {
            fc.args().forEach(a -> templates(a, out));
        } else if (e instanceof Tuple t) {
            t.items().forEach(i -> templates(i, out));
        } else if (e instanceof Conditional c) {
            templates(c.then(), out);
            templates(c.otherwise(), out);
        } else if (e instanceof Parens p) {
            templates(p.inner(), out);
        }
        return out;
    }

    private static boolean isAttributeOf(Expr e, String root, String attr) {
        return e instanceof ScopeTraversal t && t.root().equals(root) && t.steps().size() == 1
                && t.steps().get(0) instanceof GetAttr g && g.name().equals(attr);
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
