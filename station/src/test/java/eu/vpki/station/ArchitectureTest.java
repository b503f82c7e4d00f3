package eu.vpki.station;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** The load client speaks TS 102 941 through our ETSI API only: no BouncyCastle, no OER glue. */
class ArchitectureTest {
    @Test
    void loadClient_usesOnlyTheEtsiApi() {
        var classes = new ClassFileImporter().withImportOption(new ImportOption.DoNotIncludeTests()).importPackages("eu.vpki.station");
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.bouncycastle..", "eu.vpki.common.etsi.oer..")
                .check(classes);
    }
}
