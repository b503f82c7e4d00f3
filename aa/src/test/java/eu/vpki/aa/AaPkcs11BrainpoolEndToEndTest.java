package eu.vpki.aa;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import org.junit.jupiter.api.Tag;

/**
 * {@link AaPkcs11EndToEndTest} with every authority's keys on brainpoolP256r1 (issue #36: the whole flow with the keys in
 * tokens "on each curve"; SunEC has no brainpool, the token does): the RCA's root key, the EA's and the AA's signing and
 * encryption keys made by the key ceremony in their SoftHSM2 tokens; a station enrols and gets an AT chaining to the
 * root; the AA's token removed while serving gives no AT and health DOWN.
 */
@Tag("softhsm")
class AaPkcs11BrainpoolEndToEndTest extends AaPkcs11EndToEndTest {
    @Override
    EtsiCurve curve() {
        return EtsiCurve.BRAINPOOL_P256R1;
    }
}
