package eu.vpki.shell.keys;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyAgreement;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Token;

/** The keys in a PKCS#11 token ({@code vpki.keystore.pkcs11.*}), found by their labels; they never leave it. */
public final class Pkcs11KeySource implements AuthorityKeySource {
    private final Pkcs11Token token;

    public Pkcs11KeySource(Pkcs11Token token) {
        this.token = token;
    }

    @Override
    public EtsiSigner signer(String alias, String configKey, EtsiCurve expected) {
        try {
            return token.signer(alias, expected);
        } catch (PkiException e) {
            throw new PkiException(e.code(), configKey + ": " + e.getMessage(), e);
        }
    }

    @Override
    public EtsiKeyAgreement keyAgreement(String alias, String configKey, EtsiCurve expected) {
        try {
            return token.keyAgreement(alias, expected);
        } catch (PkiException e) {
            throw new PkiException(e.code(), configKey + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean mayBlock() {
        return true;
    }

    public Pkcs11Token token() {
        return token;
    }
}
