package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Template;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A module in the call tree: the root module, or a module called (with a local source) from its parent.
 * A call with count or for_each is one instance here: the checks reason about the configuration, not about
 * expanded instances.
 */
public final class ModuleInstance {

    private final TfModule module;
    private final ModuleInstance parent;
    private final Block call;
    private final Map<Path, TfModule> cache;
    private Map<String, ModuleInstance> children;

    private ModuleInstance(TfModule module, ModuleInstance parent, Block call, Map<Path, TfModule> cache) {
        this.module = module;
        this.parent = parent;
        this.call = call;
        this.cache = cache;
    }

    /** The root module in dir and, lazily, every module it calls through a local path. */
    public static ModuleInstance loadRoot(Path dir) {
        Map<Path, TfModule> cache = new HashMap<>();
        Path normalized = dir.toAbsolutePath().normalize();
        return new ModuleInstance(cache.computeIfAbsent(normalized, TfModule::load), null, null, cache);
    }

    public TfModule module() {
        return module;
    }

    public Optional<ModuleInstance> parent() {
        return Optional.ofNullable(parent);
    }

    /** The module block in the parent that calls this instance; empty for the root. */
    public Optional<Block> call() {
        return Optional.ofNullable(call);
    }

    public String address() {
        if (parent == null) {
            return "root";
        }
        return (parent.parent == null ? "" : parent.address() + ".") + "module." + call.label(0);
    }

    /** The local source directory of a module call, if its source is a local path. */
    public Optional<Path> sourceDir(Block moduleCall) {
        return moduleCall.body().expr("source")
                .filter(Template.class::isInstance).map(Template.class::cast)
                .flatMap(Template::constant)
                .filter(s -> s.startsWith("./") || s.startsWith("../"))
                .map(s -> module.dir().resolve(s).normalize());
    }

    /** Called modules with a local source, by call name. */
    public Map<String, ModuleInstance> children() {
        if (children == null) {
            children = new LinkedHashMap<>();
            module.moduleCalls().forEach((name, block) -> sourceDir(block).ifPresent(
                    dir -> children.put(name, new ModuleInstance(cache.computeIfAbsent(dir, TfModule::load), this, block, cache))));
        }
        return children;
    }

    /** This instance and every instance below it. */
    public List<ModuleInstance> tree() {
        List<ModuleInstance> all = new ArrayList<>();
        all.add(this);
        children().values().forEach(c -> all.addAll(c.tree()));
        return all;
    }

    @Override
    public String toString() {
        return address();
    }
}
