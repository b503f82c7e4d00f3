import com.bertramlabs.plugins.hcl4j.HCLParser;
import org.openrewrite.Cursor;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.SourceFile;
import org.openrewrite.hcl.tree.Hcl;
import org.openrewrite.tree.ParseError;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Which of our Terraform files two maintained Java HCL2 parsers read, and what they keep of the
 * references our checks follow. Single-file program: run.sh gives it the class path and the
 * terraform directory. Prints one line per failure and a summary per parser.
 */
public class HclParsersProbe {
    /** Constructs the checks depend on, outside the .tf files' own content. */
    private static final String REFERENCES = """
            locals {
              url   = "http://aa.${var.domain_name}"
              ips   = local.layout[each.key].ea_ips
              order = var.replication_order
              hosts = join(",", [for ip in var.ips : "${ip}[7800]"])
            }
            """;

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).toAbsolutePath().normalize();
        List<Path> tf;
        List<Path> templates;
        try (Stream<Path> s = Files.walk(root)) {
            List<Path> all = s.filter(p -> !root.relativize(p).startsWith("src") && !root.relativize(p).startsWith("target")).sorted().toList();
            tf = all.stream().filter(p -> p.toString().endsWith(".tf")).toList();
            templates = all.stream().filter(p -> p.toString().endsWith(".tftpl")).toList();
        }
        int hcl4jFailed = 0;
        int rewriteFailed = 0;
        for (Path f : tf) {
            String text = Files.readString(f);
            String name = root.relativize(f).toString();
            String hcl4j = hcl4j(text);
            if (hcl4j.startsWith("FAIL")) {
                hcl4jFailed++;
                System.out.println("hcl4j       " + name + ": " + hcl4j);
            }
            String rewrite = rewrite(text);
            if (!rewrite.equals("ok")) {
                rewriteFailed++;
                System.out.println("rewrite-hcl " + name + ": " + rewrite);
            }
        }
        System.out.println("hcl4j 0.9.8:        fails on " + hcl4jFailed + " of " + tf.size() + " .tf files");
        System.out.println("rewrite-hcl 8.90.3: fails on " + rewriteFailed + " of " + tf.size()
                + " .tf files (ok = no syntax error and printed back byte for byte)");
        for (Path t : templates) {
            // a template file is a template's body: read as a heredoc, the only template form rewrite-hcl has
            String text = Files.readString(t);
            System.out.println("rewrite-hcl template " + root.relativize(t) + ": "
                    + rewrite("x = <<VPKI_TEMPLATE\n" + text + (text.endsWith("\n") ? "" : "\n") + "VPKI_TEMPLATE\n"));
        }
        System.out.println("rewrite-hcl \"a = 1 b = 2\" (invalid: two attributes on one line): " + rewrite("a = 1 b = 2\n"));
        System.out.println("rewrite-hcl \"\\u00e9\" escape: " + rewrite("a = \"\\u00e9\"\n"));
        System.out.println("references, hcl4j:       " + quietly(() -> String.valueOf(new HCLParser().parse(REFERENCES))));
        System.out.println("references, rewrite-hcl: " + rewriteAttributes(REFERENCES));
    }

    private static String hcl4j(String text) {
        try {
            quietly(() -> new HCLParser().parse(text));
            return "ok";
        } catch (RuntimeException e) {
            Throwable t = e.getCause() != null ? e.getCause() : e;
            return "FAIL " + String.valueOf(t.getMessage()).lines().findFirst().orElse("");
        }
    }

    private static String rewrite(String text) {
        List<Throwable> errors = new ArrayList<>();
        SourceFile sf = org.openrewrite.hcl.HclParser.builder().build().parse(new InMemoryExecutionContext(errors::add), text)
                .findFirst().orElseThrow();
        if (sf instanceof ParseError) {
            return "FAIL parse error";
        }
        if (!errors.isEmpty()) {
            return "FAIL " + errors.size() + " syntax errors, first: " + String.valueOf(errors.get(0).getMessage()).lines().findFirst().orElse("");
        }
        return sf.printAll().equals(text) ? "ok" : "FAIL printed back differently";
    }

    private static String rewriteAttributes(String text) {
        Hcl.ConfigFile cf = (Hcl.ConfigFile) org.openrewrite.hcl.HclParser.builder().build()
                .parse(new InMemoryExecutionContext(Throwable::printStackTrace), text).findFirst().orElseThrow();
        StringBuilder sb = new StringBuilder();
        for (var c : ((Hcl.Block) cf.getBody().get(0)).getBody()) {
            Hcl.Attribute a = (Hcl.Attribute) c;
            sb.append(a.getName().print(new Cursor(null, cf)).trim()).append('=').append(a.getValue().getClass().getSimpleName())
                    .append('(').append(a.getValue().print(new Cursor(null, cf)).trim()).append(") ");
        }
        return sb.toString().trim();
    }

    /** hcl4j prints its evaluation steps to standard output. */
    private static <T> T quietly(java.util.concurrent.Callable<T> parse) {
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try {
            return parse.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new RuntimeException(e);
        } finally {
            System.setOut(out);
        }
    }
}
