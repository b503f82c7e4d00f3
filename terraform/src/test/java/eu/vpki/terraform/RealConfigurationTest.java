package eu.vpki.terraform;

import eu.vpki.terraform.checks.Checks;
import eu.vpki.terraform.checks.Deployment;
import eu.vpki.terraform.checks.Violation;
import eu.vpki.terraform.hcl.Ast.ObjectCons;
import eu.vpki.terraform.hcl.Ast.ObjectItem;
import eu.vpki.terraform.hcl.HclReader;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The checks on the real terraform/ configuration: it parses, and every check passes. */
class RealConfigurationTest {

    static final Path DIR = Path.of(System.getProperty("vpki.terraform.dir", ".")).toAbsolutePath().normalize();
    static final Path EXAMPLE = DIR.resolve("examples/eu-us.tfvars");

    /** The configuration's own files: everything but the Maven parts of this module. */
    static List<Path> configurationFiles(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> !dir.relativize(p).startsWith("src") && !dir.relativize(p).startsWith("target"))
                    .filter(p -> p.toString().matches(".*\\.(tf|tfvars|tftpl)$"))
                    .sorted().toList();
        }
    }

    @Test
    void everyFileParses() throws IOException {
        List<Path> files = configurationFiles(DIR);
        assertThat(files).extracting(p -> DIR.relativize(p).toString())
                .contains("main.tf", "variables.tf", "modules/region/hosts.tf", "modules/global/peering.tf",
                        "modules/host-config/templates/user-data.sh.tftpl", "examples/eu-us.tfvars");
        for (Path f : files) {
            if (f.toString().endsWith(".tftpl")) {
                assertThat(HclReader.readTemplateFile(f).parts()).as(f.toString()).isNotEmpty();
            } else {
                assertThat(HclReader.readFile(f).attributes().size() + HclReader.readFile(f).blocks().size())
                        .as(f.toString()).isPositive();
            }
        }
    }

    @Test
    void exampleDeploysEuropeAndUsWest() {
        ObjectCons regions = (ObjectCons) HclReader.readFile(EXAMPLE).expr("regions").orElseThrow();
        assertThat(regions.items()).map(ObjectItem::constantKey).map(k -> k.orElseThrow())
                .contains("eu-west-1", "us-west-2");
    }

    @Test
    void everyCheckPasses() {
        List<Violation> violations = Checks.runAll(Deployment.load(DIR, EXAMPLE));
        assertThat(violations).isEmpty();
    }

    @Test
    void terraformFmtIsClean() throws Exception {
        Path terraform = Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .map(p -> Path.of(p, "terraform")).filter(Files::isExecutable).findFirst().orElse(null);
        assumeTrue(terraform != null, "no terraform binary on PATH");
        Process p = new ProcessBuilder(terraform.toString(), "fmt", "-check", "-recursive", "-list=true", ".")
                .directory(DIR.toFile()).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as("terraform fmt -check -recursive:%n%s", output).isZero();
    }
}
