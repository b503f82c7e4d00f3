package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Attribute;
import eu.vpki.terraform.hcl.Ast.Block;
import eu.vpki.terraform.hcl.Ast.Body;
import eu.vpki.terraform.hcl.HclReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** One Terraform module: the top-level blocks of the .tf files of a directory. */
public final class TfModule {

    private final Path dir;
    private final Map<String, Block> variables = new LinkedHashMap<>();
    private final Map<String, Attribute> locals = new LinkedHashMap<>();
    private final Map<String, Block> outputs = new LinkedHashMap<>();
    private final Map<String, Block> moduleCalls = new LinkedHashMap<>();
    private final List<Block> resources = new ArrayList<>();
    private final List<Block> dataSources = new ArrayList<>();

    private TfModule(Path dir) {
        this.dir = dir;
    }

    public static TfModule load(Path dir) {
        TfModule m = new TfModule(dir);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".tf")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Path f : files) {
            Body body = HclReader.readFile(f);
            for (Block b : body.blocks()) {
                switch (b.type()) {
                    case "variable" -> m.variables.put(b.label(0), b);
                    case "output" -> m.outputs.put(b.label(0), b);
                    case "module" -> m.moduleCalls.put(b.label(0), b);
                    case "resource" -> m.resources.add(b);
                    case "data" -> m.dataSources.add(b);
                    case "locals" -> b.body().attributes().forEach(a -> m.locals.put(a.name(), a));
                    default -> {
                        // terraform, provider, moved, import, check: not needed by the checks
                    }
                }
            }
        }
        return m;
    }

    public Path dir() {
        return dir;
    }

    public Map<String, Block> variables() {
        return variables;
    }

    public Map<String, Attribute> locals() {
        return locals;
    }

    public Map<String, Block> outputs() {
        return outputs;
    }

    public Map<String, Block> moduleCalls() {
        return moduleCalls;
    }

    public List<Block> resources() {
        return resources;
    }

    public List<Block> dataSources() {
        return dataSources;
    }

    /** "type.name" of a resource or data block. */
    public static String address(Block b) {
        return (b.type().equals("data") ? "data." : "") + b.label(0) + "." + b.label(1);
    }
}
