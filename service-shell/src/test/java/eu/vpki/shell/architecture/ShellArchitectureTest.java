package eu.vpki.shell.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import eu.vpki.common.testing.ServiceArchitecture;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/** The shell serves every service and knows none of them; the rules the services keep do catch a leaking core. */
@AnalyzeClasses(packages = "eu.vpki.shell", importOptions = ImportOption.DoNotIncludeTests.class)
class ShellArchitectureTest {
    @ArchTest
    static final ArchRule shellKnowsNoService = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("eu.vpki.rca..", "eu.vpki.dc..", "eu.vpki.ea..", "eu.vpki.operator..", "eu.vpki.aa..");

    @Test
    void coreRule_catchesACoreThatUsesSpringOrTheShell() {
        JavaClasses leaking = new ClassFileImporter().importPackages("eu.vpki.fixture");
        assertThat(leaking.contain("eu.vpki.fixture.core.LeakingCore")).isTrue();
        var result = ServiceArchitecture.coreIsPlainJava("fixture").evaluate(leaking);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails()).anyMatch(d -> d.contains("org.springframework.http.HttpStatus"))
                .anyMatch(d -> d.contains("eu.vpki.shell.problem.Problems"));
    }
}
