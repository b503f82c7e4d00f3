package eu.vpki.shell.keys;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiSigner;

/**
 * Where an authority's private keys are, as {@code vpki.keystore.backend} selects it: a PKCS#12 file
 * ({@link SoftwareKeySource}) or a PKCS#11 token ({@link Pkcs11KeySource}). The cores only see the
 * {@link EtsiSigner} and {@link EtsiKeyAgreement} it returns.
 */
public interface AuthorityKeySource {
    /**
     * The signer of the key named {@code alias}.
     *
     * @param configKey the configuration key naming it, for the error message
     * @param expected  the curve the authority's certificate is on, or null
     * @throws eu.vpki.common.error.PkiException KEY_STORE_FAILURE when there is no such key (or it is on another curve)
     */
    EtsiSigner signer(String alias, String configKey, EtsiCurve expected);

    /** The key agreement of the encryption key named {@code alias}; as {@link #signer}. */
    EtsiKeyAgreement keyAgreement(String alias, String configKey, EtsiCurve expected);

    /**
     * Whether a key operation may wait on a device (a token, an HSM over the network): then the access
     * points run their work on worker threads, never on an event loop.
     */
    boolean mayBlock();
}
