package eu.vpki.aa.core;

import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.AuthorizationValidationMessages;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.TestPki;

import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * An in-process EA for unit tests only, built from the common message classes: it checks the AA
 * against its CTL, finds the EC by the signer digest, verifies the EC signature, refuses unknown,
 * expired or revoked ECs, and confirms the requested attributes (or what {@link #confirm} makes of
 * them). Access points listed in {@link #down} fail with an I/O error. It keeps every decrypted
 * validation request it saw, so that tests can check what the EA learns.
 */
public final class FakeEa implements AuthorizationValidationClient {
    private final TestPki pki;
    private final Clock clock;
    private final DataEncryption encryption;
    private final DecryptionIdentity identity;
    final Map<HashedId8, EtsiCertificate> enrolmentCredentials = new ConcurrentHashMap<>();
    final Set<HashedId8> revokedEcs = ConcurrentHashMap.newKeySet();
    final Set<URI> down = ConcurrentHashMap.newKeySet();
    final List<byte[]> seenPlaintexts = new CopyOnWriteArrayList<>();
    final List<URI> calls = new CopyOnWriteArrayList<>();
    volatile UnaryOperator<SubjectAttributes> confirm = UnaryOperator.identity();
    volatile Integer forcedCode;

    FakeEa(TestPki pki, Clock clock, DataEncryption encryption) {
        this.pki = pki;
        this.clock = clock;
        this.encryption = encryption;
        this.identity = new DecryptionIdentity(pki.eaEncKey, pki.ea.hashedId8(), pki.ea.sha256());
    }

    @Override
    public CompletableFuture<byte[]> validate(URI accessPoint, byte[] body) {
        calls.add(accessPoint);
        if (down.contains(accessPoint)) {
            return CompletableFuture.failedFuture(new EaCallException(EaCallException.Reason.IO, "connection refused: " + accessPoint));
        }
        return CompletableFuture.completedFuture(answer(body));
    }

    private byte[] answer(byte[] body) {
        DecryptedRequest decrypted = DecryptedRequest.decrypt(body, identity, encryption);
        seenPlaintexts.add(decrypted.plaintext());
        int code;
        SubjectAttributes confirmed = null;
        try {
            var request = AuthorizationValidationMessages.parseRequest(decrypted,
                    id -> id.equals(pki.aa.hashedId8()) ? Optional.of(pki.aa) : Optional.empty(), identity, encryption);
            HashedId8 ecId = request.ecSignature().signerDigest().orElseThrow();
            EtsiCertificate ec = enrolmentCredentials.get(ecId);
            if (ec == null || revokedEcs.contains(ecId)) {
                code = EtsiCodes.Validation.UNKNOWNITS;
            } else {
                request.ecSignature().requireSignedBy(ec);
                CertificateChecks.checkValidAt(ec, clock.instant());
                code = forcedCode == null ? EtsiCodes.Validation.OK : forcedCode;
                confirmed = code == EtsiCodes.Validation.OK ? confirm.apply(request.requested()) : null;
            }
        } catch (PkiException e) {
            code = e.code().authorizationValidationResponseCode();
        }
        return AuthorizationValidationMessages.response(decrypted, code, confirmed, pki.eaSigner(), pki.ea, clock.instant(), encryption);
    }
}
