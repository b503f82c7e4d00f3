package eu.vpki.cli;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tool modules' arrows point one way, down (README, "Modules"): cli -> experiments -> faults ->
 * testbed -> station and admin -> common. Maven already refuses a cycle between modules; this keeps
 * the layering itself, so that the operator's admin tool never pulls the test rig in, and the station
 * never the launcher.
 */
class ModuleLayersTest {
    private static final JavaClasses CLASSES = new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests())
            .importPackages("eu.vpki");

    static Architectures.LayeredArchitecture layers() {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("cli").definedBy("eu.vpki.cli..")
                .layer("experiments").definedBy("eu.vpki.experiments..")
                .layer("faults").definedBy("eu.vpki.faults..")
                .layer("testbed").definedBy("eu.vpki.testbed..")
                .layer("station").definedBy("eu.vpki.station..")
                .layer("admin").definedBy("eu.vpki.admin..")
                .layer("common").definedBy("eu.vpki.common..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("experiments").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("faults").mayOnlyBeAccessedByLayers("experiments", "cli")
                .whereLayer("testbed").mayOnlyBeAccessedByLayers("faults", "experiments", "cli")
                .whereLayer("station").mayOnlyBeAccessedByLayers("testbed", "faults", "experiments", "cli")
                .whereLayer("admin").mayOnlyBeAccessedByLayers("testbed", "faults", "experiments", "cli");
    }

    @Test
    void toolModules_dependOnlyDownward() {
        layers().check(CLASSES);
    }

    @Test
    void adminAndStation_areIndependentOfEachOther() {
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses().that().resideInAPackage("eu.vpki.admin..")
                .should().dependOnClassesThat().resideInAPackage("eu.vpki.station..").check(CLASSES);
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses().that().resideInAPackage("eu.vpki.station..")
                .should().dependOnClassesThat().resideInAPackage("eu.vpki.admin..").check(CLASSES);
    }

    @Test
    void layersRule_failsOnAnUpwardArrow() {
        // the rule can fail: the same layers with the station placed above the testbed must find the testbed's calls into it
        EvaluationResult upward = layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("testbed").definedBy("eu.vpki.testbed..")
                .layer("station").definedBy("eu.vpki.station..")
                .whereLayer("station").mayNotBeAccessedByAnyLayer()
                .evaluate(CLASSES);
        assertThat(upward.hasViolation()).isTrue();
    }
}
