package eu.vpki.common.architecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * common is plain Java shared by every authority: no Spring anywhere in it; BouncyCastle only inside
 * the ETSI core ({@code eu.vpki.common.etsi}); the replication library knows nothing of ETSI.
 */
@AnalyzeClasses(packages = "eu.vpki.common", importOptions = ImportOption.DoNotIncludeTests.class)
class CommonArchitectureTest {
    @ArchTest
    static final ArchRule noSpring = noClasses().should().dependOnClassesThat().resideInAPackage("org.springframework..");

    @ArchTest
    static final ArchRule bouncyCastleOnlyInTheEtsiCore = noClasses().that().resideOutsideOfPackage("eu.vpki.common.etsi..")
            .should().dependOnClassesThat().resideInAPackage("org.bouncycastle..");

    @ArchTest
    static final ArchRule replicationIndependentOfEtsi = noClasses().that().resideInAPackage("eu.vpki.common.replication..")
            .should().dependOnClassesThat().resideInAPackage("eu.vpki.common.etsi..");
}
