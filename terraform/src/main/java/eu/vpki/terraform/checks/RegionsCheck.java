package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.hcl.Ast.ObjectCons;
import eu.vpki.terraform.hcl.Ast.ObjectItem;
import eu.vpki.terraform.hcl.Ast.Pos;
import eu.vpki.terraform.hcl.Ast.Template;
import eu.vpki.terraform.hcl.Ast.Literal;
import eu.vpki.terraform.checks.Resolver.Leaf;
import eu.vpki.terraform.checks.Resolver.RootVariable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every region of the example instantiates module "region", and that module really deploys into its region:
 * every regional resource and data source in it sets {@code region = var.region}. (With one provider
 * configuration, a resource without it silently lands in the provider's default region.)
 */
public final class RegionsCheck implements Check {

    static final String REGION_MODULE = "modules/region";

    @Override
    public String id() {
        return "regions";
    }

    @Override
    public List<Violation> run(Deployment d) {
        List<Violation> violations = new ArrayList<>();
        ModuleInstance root = d.root();
        List<ModuleInstance> regionCalls = root.children().values().stream()
                .filter(c -> c.module().dir().endsWith(Path.of(REGION_MODULE))).toList();
        Pos rootPos = new Pos(root.module().dir().resolve("main.tf"), 1);
        if (regionCalls.isEmpty()) {
            violations.add(new Violation(id(), rootPos, "the root module does not call ./" + REGION_MODULE));
            return violations;
        }

        Optional<Expr> regions = d.example().expr("regions");
        if (regions.isEmpty() || !(regions.get() instanceof ObjectCons o) || o.items().isEmpty()) {
            violations.add(new Violation(id(), new Pos(d.examplePath(), 1), "the example sets no regions"));
        } else {
            for (ObjectItem item : o.items()) {
                String region = item.constantKey().orElse("?");
                if (regionCalls.stream().noneMatch(c -> instantiates(c, region))) {
                    violations.add(new Violation(id(), item.value().pos(),
                            "region " + region + " of the example does not instantiate module region"));
                }
            }
        }

        // the module's resources, checked once (every call shares the same files)
        for (Block b : concat(regionCalls.get(0).module().resources(), regionCalls.get(0).module().dataSources())) {
            String type = b.label(0);
            if (!type.startsWith("aws_") || type.startsWith("aws_iam_") || type.startsWith("aws_route53_")) {
                continue; // not AWS, or a global service
            }
            if (b.body().expr("region").filter(e -> Checks.isReference(e, "var", "region")).isEmpty()) {
                violations.add(new Violation(id(), b.pos(),
                        TfModule.address(b) + " in " + REGION_MODULE + " does not set region = var.region"));
            }
        }
        return violations;
    }

    /** A for_each over var.regions with region = each.key covers every region; otherwise region = "<name>". */
    private static boolean instantiates(ModuleInstance regionCall, String region) {
        Block call = regionCall.call().orElseThrow();
        Optional<Expr> regionArg = call.body().expr("region");
        if (regionArg.isEmpty()) {
            return false;
        }
        Optional<Expr> forEach = call.body().expr("for_each");
        if (forEach.isPresent()) {
            List<Leaf> sources = Resolver.leaves(forEach.get(), Resolver.Env.of(regionCall.parent().orElseThrow(), call));
            boolean overAllRegions = sources.size() == 1 && sources.get(0) instanceof RootVariable v
                    && v.name().equals("regions") && v.steps().isEmpty() && v.plain();
            return overAllRegions && Checks.isReference(regionArg.get(), "each", "key");
        }
        Optional<String> constant = regionArg.get() instanceof Template t
                ? t.constant()
                : regionArg.get() instanceof Literal l && l.value() instanceof String s ? Optional.of(s) : Optional.empty();
        return call.body().attribute("count").isEmpty() && constant.equals(Optional.of(region));
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
