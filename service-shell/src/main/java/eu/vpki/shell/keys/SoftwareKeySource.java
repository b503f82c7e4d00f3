package eu.vpki.shell.keys;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.crypto.SoftwareKeyAgreement;
import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.common.etsi.crypto.SoftwareSigner;

import java.security.SecureRandom;

/** The keys in the PKCS#12 file ({@code vpki.keystore.path}), held in memory once read. */
public final class SoftwareKeySource implements AuthorityKeySource {
    private final SoftwareKeyStore store;
    private final SecureRandom random;

    public SoftwareKeySource(SoftwareKeyStore store, SecureRandom random) {
        this.store = store;
        this.random = random;
    }

    @Override
    public EtsiSigner signer(String alias, String configKey, EtsiCurve expected) {
        return new SoftwareSigner(keyPair(alias, configKey), random);
    }

    @Override
    public EtsiKeyAgreement keyAgreement(String alias, String configKey, EtsiCurve expected) {
        return new SoftwareKeyAgreement(keyPair(alias, configKey));
    }

    private EtsiKeyPair keyPair(String alias, String configKey) {
        return store.keyPair(alias).orElseThrow(() -> new PkiException(ErrorCode.KEY_STORE_FAILURE,
                "the key store (vpki.keystore.path) has no key '" + alias + "' (" + configKey + ")"));
    }

    @Override
    public boolean mayBlock() {
        return false;
    }
}
