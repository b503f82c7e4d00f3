package eu.vpki.aa;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The core package of this service stays plain Java: Spring lives only in the shell around it; and
 * no class of the service touches BouncyCastle or the ETSI core's OER glue (only our ETSI API).
 */
@AnalyzeClasses(packages = "eu.vpki.aa", importOptions = ImportOption.DoNotIncludeTests.class)
class CoreArchitectureTest {
    @ArchTest
    static final ArchRule coreHasNoSpring = noClasses().that().resideInAPackage("eu.vpki.aa.core..")
            .should().dependOnClassesThat().resideInAPackage("org.springframework..");

    @ArchTest
    static final ArchRule noBouncyCastle = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("org.bouncycastle..", "eu.vpki.common.etsi.oer..");
}
