package eu.vpki.common.etsi.crypto.pkcs11;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * Where a PKCS#11 token is and how to log in: the module (shared library), the token's slot (its
 * PKCS#11 slot id, or its index in the module's slot list) and the user PIN. The JDK 17 SunPKCS11
 * provider cannot select a token by label (measured: "Unknown keyword 'tokenLabel'"), so a slot it is;
 * docs/design-hsm.md. The PIN comes from a file or the environment, never from the command line.
 *
 * @param library       the PKCS#11 module, e.g. {@code /usr/lib/softhsm/libsofthsm2.so}
 * @param slot          the slot id, or null to use {@code slotListIndex}
 * @param slotListIndex the index in the module's list of slots with a token (used when {@code slot} is null)
 * @param pin           the user PIN
 */
public record Pkcs11Settings(Path library, Long slot, int slotListIndex, char[] pin) {
    /** Environment variable holding the PIN when no PIN file is given. */
    public static final String PIN_ENV = "VPKI_PKCS11_PIN";

    public Pkcs11Settings {
        if (library == null) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "no PKCS#11 module (library) configured");
        }
        if (slot == null && slotListIndex < 0) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "PKCS#11 slot-list-index must be 0 or more, was " + slotListIndex);
        }
        if (pin == null || pin.length == 0) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "no PKCS#11 user PIN");
        }
        pin = pin.clone();
    }

    @Override
    public char[] pin() {
        return pin.clone();
    }

    /** The PIN: the first line of {@code pinFile} if given, else the environment variable {@code envName}. */
    public static char[] pin(Path pinFile, Map<String, String> environment, String envName) {
        if (pinFile != null) {
            try {
                String first = Files.readAllLines(pinFile, StandardCharsets.UTF_8).stream().findFirst().orElse("").strip();
                if (first.isEmpty()) {
                    throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "PKCS#11 PIN file " + pinFile + " is empty");
                }
                return first.toCharArray();
            } catch (IOException e) {
                throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "cannot read PKCS#11 PIN file " + pinFile + ": " + e.getMessage(), e);
            }
        }
        String env = environment.get(envName);
        if (env == null || env.isEmpty()) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "no PKCS#11 PIN: give a PIN file or set " + envName);
        }
        return env.toCharArray();
    }

    /** The slot as SunPKCS11 configuration lines. */
    String slotLines() {
        return slot != null ? "slot = " + slot + "\n" : "slotListIndex = " + slotListIndex + "\n";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Pkcs11Settings s && s.library.equals(library) && Objects.equals(s.slot, slot)
                && s.slotListIndex == slotListIndex && Arrays.equals(s.pin, pin);
    }

    @Override
    public int hashCode() {
        return Objects.hash(library, slot, slotListIndex);
    }

    @Override
    public String toString() {
        return "PKCS#11 " + library + (slot != null ? " slot " + slot : " slot-list-index " + slotListIndex);
    }
}
