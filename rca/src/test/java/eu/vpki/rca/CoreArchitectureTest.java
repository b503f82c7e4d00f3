package eu.vpki.rca;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The core package of this service stays plain Java: Spring lives only in the shell around it. */
@AnalyzeClasses(packages = "eu.vpki.rca", importOptions = ImportOption.DoNotIncludeTests.class)
class CoreArchitectureTest {
    @ArchTest
    static final ArchRule coreHasNoSpring = noClasses().that().resideInAPackage("eu.vpki.rca.core..")
            .should().dependOnClassesThat().resideInAPackage("org.springframework..");

    /** BouncyCastle and the OER codec are internal to the ETSI core in common: services use its API only. */
    @ArchTest
    static final ArchRule serviceUsesNoEtsiInternals = noClasses().that().resideInAPackage("eu.vpki.rca..")
            .should().dependOnClassesThat().resideInAnyPackage("org.bouncycastle..", "eu.vpki.common.etsi.oer..");
}
