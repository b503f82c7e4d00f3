package eu.vpki.dc;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import eu.vpki.common.testing.ServiceArchitecture;

/**
 * The core package of this service stays plain Java (Spring and the service shell live only around
 * it), and no class of the service touches BouncyCastle or the OER codec directly (common's job).
 */
@AnalyzeClasses(packages = "eu.vpki.dc", importOptions = ImportOption.DoNotIncludeTests.class)
class CoreArchitectureTest {
    @ArchTest
    static final ArchRule coreIsPlainJava = ServiceArchitecture.coreIsPlainJava("dc");

    @ArchTest
    static final ArchRule usesNoEtsiInternals = ServiceArchitecture.usesNoEtsiInternals("dc");
}
