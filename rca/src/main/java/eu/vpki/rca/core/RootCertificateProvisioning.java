package eu.vpki.rca.core;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiSigner;
import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.Validity;
import eu.vpki.common.storage.AtomicFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.function.Function;

/**
 * First start of a Root CA and every start after: the root key lives in the key store under
 * {@link #ROOT_KEY_ALIAS}, the self-signed root certificate in {@code rca-root.cert} (COER) in the
 * data directory. On first start both are created (key first, then certificate); later starts reuse
 * them and check that they belong together. A certificate without its key, or authorities certified
 * by a certificate that has gone missing, stop the start rather than silently creating a new root.
 */
public final class RootCertificateProvisioning {
    public static final String ROOT_KEY_ALIAS = "rca-root";
    public static final String CERTIFICATE_FILE = "rca-root.cert";
    private static final Logger LOG = LoggerFactory.getLogger(RootCertificateProvisioning.class);

    private RootCertificateProvisioning() {
    }

    public static RootCa loadOrCreate(SoftwareKeyStore keyStore, Path dataDir, RcaSettings settings, RcaState state,
                                      Instant now, SecureRandom random, AuditLog audit) {
        Path certFile = dataDir.resolve(CERTIFICATE_FILE);
        boolean certExists = Files.exists(certFile);
        var existingKey = keyStore.keyPair(ROOT_KEY_ALIAS);
        if (certExists && existingKey.isEmpty()) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "root certificate " + certFile
                    + " exists but the key store has no key '" + ROOT_KEY_ALIAS + "': wrong key store?");
        }
        if (certExists) {
            EtsiCertificate cert = read(certFile);
            EtsiKeyPair key = existingKey.get();
            if (!cert.verificationKey().equals(key.publicKey())) {
                throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "root certificate " + cert + " does not carry the key stored as '"
                        + ROOT_KEY_ALIAS + "'");
            }
            CertificateChecks.checkIssuedBy(cert, null, null);
            LOG.info("Root CA {} loaded from {}", cert, certFile);
            return new RootCa(cert, new SoftwareSigner(key, random));
        }
        if (!state.authorities().isEmpty()) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "root certificate " + certFile + " is missing but the state lists "
                    + state.authorities().size() + " certified authorities: restore it from the backup");
        }
        EtsiKeyPair key = keyStore.keyPairOrGenerate(ROOT_KEY_ALIAS, settings.curve(), random);
        if (key.curve() != settings.curve()) {
            LOG.warn("the key store's root key is on {}, not the configured {}: keeping the stored key", key.curve(), settings.curve());
        }
        SoftwareSigner signer = new SoftwareSigner(key, random);
        EtsiCertificate cert = CertificateIssuer.selfSign(CertificateProfiles.rootCa(settings.name(),
                Validity.of(now, Validity.Unit.YEARS, settings.rootValidityYears()), key.publicKey(), null,
                CertificateProfiles.defaultAuthorizationTicketRanges(), null), signer);
        if (!cert.hasAppPermission(Psids.CRL) || !cert.hasAppPermission(Psids.CTL) || !cert.isCa()) {
            throw new PkiException(ErrorCode.INVALID_PROFILE, "root certificate lacks CRL/CTL permissions or certIssuePermissions");
        }
        AtomicFiles.write(certFile, cert.encoded());
        audit.event("root-certificate-created", "hashedId8", cert.hashedId8().toHex(), "name", settings.name(),
                "curve", key.curve().curveName(), "validUntil", cert.validity().end().toString());
        LOG.info("Root CA {} created at first start, certificate in {}", cert, certFile);
        return new RootCa(cert, signer);
    }

    /**
     * The Root CA whose key is in a token (issue #36): the key ceremony generated it and wrote the
     * self-signed certificate, which must be in {@code dataDir} as {@value #CERTIFICATE_FILE}; nothing is
     * created at start-up. The token's key is looked up only once the certificate is read, so that a key on
     * another curve than the certificate's is named as such (as for the EA's and AA's keys).
     *
     * @param signerFor the token's signer of the key labelled {@value #ROOT_KEY_ALIAS}, given the curve the
     *                  certificate is on (it fails with {@link ErrorCode#KEY_STORE_FAILURE} when the key is missing or on
     *                  another curve)
     * @throws PkiException {@link ErrorCode#KEY_STORE_FAILURE} when the certificate is missing or carries another key
     */
    public static RootCa loadFromToken(Function<EtsiCurve, EtsiSigner> signerFor, Path dataDir) {
        Path certFile = dataDir.resolve(CERTIFICATE_FILE);
        if (!Files.exists(certFile)) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "the root key is in a token but " + certFile
                    + " is missing: copy the root certificate the key ceremony made there (docs/pki-bootstrap.md)");
        }
        EtsiCertificate cert = read(certFile);
        EtsiSigner signer = signerFor.apply(cert.verificationKey().curve());
        if (!cert.verificationKey().equals(signer.publicKey())) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "root certificate " + cert + " in " + certFile
                    + " does not carry the token's key '" + ROOT_KEY_ALIAS + "'");
        }
        CertificateChecks.checkIssuedBy(cert, null, null);
        LOG.info("Root CA {} loaded from {}, its key in a PKCS#11 token", cert, certFile);
        return new RootCa(cert, signer);
    }

    private static EtsiCertificate read(Path file) {
        try {
            return EtsiCertificate.decode(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new PkiException(ErrorCode.KEY_STORE_FAILURE, "cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
