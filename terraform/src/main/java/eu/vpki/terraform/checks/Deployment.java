package eu.vpki.terraform.checks;

import eu.vpki.terraform.hcl.Ast.Body;
import eu.vpki.terraform.hcl.HclReader;

import java.nio.file.Path;

/** What the checks look at: the root module (with its module tree) and an example variables file. */
public record Deployment(ModuleInstance root, Body example, Path examplePath) {

    public static Deployment load(Path rootDir, Path exampleTfvars) {
        return new Deployment(ModuleInstance.loadRoot(rootDir), HclReader.readFile(exampleTfvars), exampleTfvars);
    }
}
