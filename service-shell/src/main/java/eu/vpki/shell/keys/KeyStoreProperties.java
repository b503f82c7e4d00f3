package eu.vpki.shell.keys;

import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Settings;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.nio.file.Path;
import java.util.Map;

/**
 * {@code vpki.keystore.*}: where an authority's (RCA, EA, AA) private keys are.
 *
 * @param backend      {@code software} (default: the PKCS#12 file below) or {@code pkcs11} (a token or HSM,
 *                     {@code vpki.keystore.pkcs11.*}; issue #36, docs/deployment.md "Keys in an HSM")
 * @param path         the key store; default {@code ./data/<service>.p12} (service from {@code spring.application.name},
 *                     e.g. {@code vpki-ea} gives {@code ./data/ea.p12})
 * @param passwordFile file whose first line is the password; without it the environment variable
 *                     {@code VPKI_KEYSTORE_PASSWORD}
 * @param pkcs11       the token, when {@code backend} is {@code pkcs11}
 */
@ConfigurationProperties("vpki.keystore")
public record KeyStoreProperties(Backend backend, Path path, Path passwordFile, Pkcs11 pkcs11) {
    /** Environment variable holding the password when no password file is given. */
    public static final String PASSWORD_ENV = "VPKI_KEYSTORE_PASSWORD";

    public enum Backend { SOFTWARE, PKCS11 }

    public KeyStoreProperties {
        backend = backend == null ? Backend.SOFTWARE : backend;
        pkcs11 = pkcs11 == null ? new Pkcs11(null, null, 0, null) : pkcs11;
    }

    /**
     * {@code vpki.keystore.pkcs11.*}.
     *
     * @param library       the PKCS#11 module (shared library), e.g. {@code /usr/lib/softhsm/libsofthsm2.so}
     * @param slot          the token's slot id; when absent, {@code slotListIndex}
     * @param slotListIndex index in the module's list of slots with a token; default 0
     * @param pinFile       file whose first line is the user PIN; without it the environment variable
     *                      {@code VPKI_PKCS11_PIN} (never a command-line argument)
     */
    public record Pkcs11(Path library, Long slot, int slotListIndex, Path pinFile) {
        /** The token settings, the PIN read now; fails naming the key to set. */
        public Pkcs11Settings settings(Map<String, String> environment) {
            if (library == null) {
                throw new IllegalStateException("vpki.keystore.backend=pkcs11 needs vpki.keystore.pkcs11.library (the PKCS#11 module)");
            }
            return new Pkcs11Settings(library, slot, slotListIndex, Pkcs11Settings.pin(pinFile, environment, Pkcs11Settings.PIN_ENV));
        }
    }

    /** {@link #path()}, else {@code ./data/<service>.p12}. */
    public Path pathFor(String service) {
        return path != null ? path : Path.of(".", "data", service + ".p12");
    }
}
