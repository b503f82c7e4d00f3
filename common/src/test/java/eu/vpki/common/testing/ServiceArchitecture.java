package eu.vpki.common.testing;

import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The architecture rules every service ({@code eu.vpki.<service>}) keeps, for its
 * {@code CoreArchitectureTest}: the core is plain Java, and only common's ETSI core touches
 * BouncyCastle and the OER codec.
 */
public final class ServiceArchitecture {
    private ServiceArchitecture() {
    }

    /** {@code eu.vpki.<service>.core} uses no Spring, no servlet API and nothing of the service shell ({@code eu.vpki.shell}). */
    public static ArchRule coreIsPlainJava(String service) {
        return noClasses().that().resideInAPackage("eu.vpki." + service + ".core..")
                .should().dependOnClassesThat().resideInAnyPackage("org.springframework..", "jakarta.servlet..", "eu.vpki.shell..")
                .as("the " + service + " core is plain Java: no Spring, no servlet API, no service shell");
    }

    /** No class of the service uses BouncyCastle or the OER codec directly (common's ETSI API only). */
    public static ArchRule usesNoEtsiInternals(String service) {
        return noClasses().that().resideInAPackage("eu.vpki." + service + "..")
                .should().dependOnClassesThat().resideInAnyPackage("org.bouncycastle..", "eu.vpki.common.etsi.oer..")
                .as("the " + service + " service uses common's ETSI API, not BouncyCastle or the OER codec");
    }
}
