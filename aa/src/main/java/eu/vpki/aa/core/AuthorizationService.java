package eu.vpki.aa.core;

import eu.vpki.aa.core.AaMetrics.Phase;
import eu.vpki.aa.core.AuditRecord.Outcome;
import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.EtsiRefusal;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.ReceivedAtRequest;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.AuthorizationValidationMessages.ValidationResult;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.replay.ReplayCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * Issues one Authorization Ticket per AuthorizationRequest (docs/aa.md walks it step by step):
 * <ol>
 *   <li>decrypt with the AA's encryption key (undecryptable: {@link AuthorizationOutcome.Undecryptable});</li>
 *   <li>parse; verify proof of possession when present and the keyTag against the requested keys;</li>
 *   <li>protection: an EC signature in clear is refused when {@link RequestWindow#requireEncryptedEcSignature()};</li>
 *   <li>freshness (generation time of a signed request) and replay ({@link ReplayCache}, for the request window);</li>
 *   <li>requested PSIDs must be ones this PKI issues ATs for;</li>
 *   <li>find the EA named by eaId in the current CTL ({@link EaDirectory});</li>
 *   <li>authorization validation round trip ({@link EaValidation}); an EA refusal is final;</li>
 *   <li>grant per {@link AtPolicy} (confirmed ∩ requested ∩ policy ∩ what the AA may issue), issue
 *       the AT (re-decoded and checked against the AA certificate before it leaves);</li>
 *   <li>audit-log, then answer the AuthorizationResponse encrypted with the request's AES key.</li>
 * </ol>
 * Every refusal after step 1 is an encrypted AuthorizationResponse with its response code
 * ({@link EtsiRefusal} maps them). Holds no state shared with other AA processes; thread-safe.
 */
public final class AuthorizationService {
    private static final Logger log = LoggerFactory.getLogger(AuthorizationService.class);
    private final AaIdentity aa;
    private final EaDirectory directory;
    private final EaValidation validation;
    private final AtPolicy policy;
    private final RequestWindow window;
    private final ReplayCache replays;
    private final AuditLog audit;
    private final AaMetrics metrics;
    private final Clock clock;
    private final DataEncryption encryption;

    private final java.util.concurrent.Executor afterValidation;

    public AuthorizationService(AaIdentity aa, EaDirectory directory, EaValidation validation, AtPolicy policy, RequestWindow window,
                                ReplayCache replays, AuditLog audit, AaMetrics metrics, Clock clock, DataEncryption encryption) {
        this(aa, directory, validation, policy, window, replays, audit, metrics, clock, encryption, Runnable::run);
    }

    /**
     * As above; {@code afterValidation} runs the steps after the EA's answer (the AT's signature, the
     * response's encryption and signature): directly on the thread that completes the EA call by default,
     * on worker threads when the AA's keys are in a token whose operations may wait (issue #36).
     */
    public AuthorizationService(AaIdentity aa, EaDirectory directory, EaValidation validation, AtPolicy policy, RequestWindow window,
                                ReplayCache replays, AuditLog audit, AaMetrics metrics, Clock clock, DataEncryption encryption,
                                java.util.concurrent.Executor afterValidation) {
        this.afterValidation = afterValidation;
        this.aa = aa;
        this.directory = directory;
        this.validation = validation;
        this.policy = policy;
        this.window = window;
        this.replays = replays;
        this.audit = audit;
        this.metrics = metrics;
        this.clock = clock;
        this.encryption = encryption;
    }

    /**
     * Handles one request body as posted to the AA's access point. Steps 1 to 6 run on the caller's thread;
     * the rest when the EA has answered, on the thread that completes the validation call (the event loop of the
     * AA's connection to the EA, which is the one that read the station's request).
     */
    public CompletableFuture<AuthorizationOutcome> authorize(byte[] body) {
        Instant now = clock.instant();
        long t0 = System.nanoTime();
        DecryptedRequest decrypted;
        try {
            decrypted = DecryptedRequest.decrypt(body, aa.decryption(), encryption);
        } catch (PkiException e) {
            int code = e.code().authorizationResponseCode();
            log.warn("authorization request not decryptable by this AA ({} {}): {}", e.code().code(), e.code(), e.getMessage());
            new AuditRecord(Outcome.UNDECRYPTABLE, code, null, null, e.code()).writeTo(audit);
            metrics.ticket(Outcome.UNDECRYPTABLE, code);
            return CompletableFuture.completedFuture(new AuthorizationOutcome.Undecryptable(e.code(), e.getMessage()));
        }
        ReceivedAtRequest received;
        CompletableFuture<ValidationResult> validated;
        long t1;
        HashedId8 eaId = null; // for the audit line of a refusal: the EA the request named, once it is parsed
        try {
            received = AuthorizationMessages.parseRequest(decrypted);
            eaId = received.eaId();
            checkFresh(decrypted, received, now);
            Psids.requireKnownForAuthorizationTickets(received.request().requested().appPermissions());
            EaEndpoint ea = directory.find(received.eaId(), now)
                    .orElseThrow(() -> new PkiException(ErrorCode.UNKNOWN_EA, "EA " + received.eaId() + " is not in the current CTL"));
            t1 = System.nanoTime();
            metrics.record(Phase.DECRYPT, t1 - t0);
            validated = validation.validate(received, ea, now);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(refusal(decrypted, e, eaId, now));
        }
        return validated.handleAsync((result, failure) -> {
            Throwable cause = failure == null ? null : EaValidation.unwrap(failure);
            if (cause instanceof Error error) {
                throw error;
            }
            if (cause != null) {
                return refusal(decrypted, (Exception) cause, received.eaId(), now);
            }
            try {
                return issue(decrypted, received, result, now, t1);
            } catch (RuntimeException e) {
                return refusal(decrypted, e, received.eaId(), now);
            }
        }, afterValidation);
    }

    /** Steps 7 (the EA's answer) to 9. */
    private AuthorizationOutcome issue(DecryptedRequest decrypted, ReceivedAtRequest received, ValidationResult result, Instant now,
                                       long t1) {
        HashedId8 eaId = received.eaId();
        long t2 = System.nanoTime();
        metrics.record(Phase.VALIDATION, t2 - t1);
        if (!result.ok()) {
            return refuse(decrypted, EtsiRefusal.eaRefused(result.responseCode()), eaId, now);
        }
        AtPolicy.Grant grant = policy.grant(received.request().requested(), result.confirmed().orElseThrow(), aa.certificate(), now);
        EtsiCertificate at = CertificateIssuer.issue(CertificateProfiles.authorizationTicket(grant.validity(),
                received.request().verificationKey(), received.request().encryptionKey(), grant.permissions(), grant.region()),
                aa.certificate(), aa.signer());
        long t3 = System.nanoTime();
        metrics.record(Phase.ISSUE, t3 - t2);

        byte[] response = AuthorizationMessages.response(decrypted, EtsiCodes.Authorization.OK, at, aa.signer(), aa.certificate(), now,
                encryption);
        new AuditRecord(Outcome.ISSUED, EtsiCodes.Authorization.OK, at.hashedId8(), eaId, null).writeTo(audit);
        metrics.record(Phase.ENCRYPT, System.nanoTime() - t3);
        metrics.ticket(Outcome.ISSUED, EtsiCodes.Authorization.OK);
        return new AuthorizationOutcome.Answered(response, EtsiCodes.Authorization.OK);
    }

    /** The refusal a failure of any step after decryption stands for: its code, or an internal failure's. */
    private AuthorizationOutcome refusal(DecryptedRequest decrypted, Exception failure, HashedId8 eaId, Instant now) {
        return refuse(decrypted, EtsiRefusal.authorization(failure), eaId, now);
    }

    private void checkFresh(DecryptedRequest decrypted, ReceivedAtRequest received, Instant now) {
        if (window.requireEncryptedEcSignature() && !received.ecSignatureEncrypted()) {
            throw new PkiException(ErrorCode.UNEXPECTED_CONTENT,
                    "EC signature not encrypted for the EA (vpki.aa.require-encrypted-ec-signature is on)");
        }
        if (received.proofOfPossession()) {
            Instant generated = received.popGenerationTime()
                    .orElseThrow(() -> new PkiException(ErrorCode.OUTDATED_REQUEST, "signed request without generationTime"));
            if (generated.isBefore(now.minus(window.window())) || generated.isAfter(now.plus(window.futureTolerance()))) {
                throw new PkiException(ErrorCode.OUTDATED_REQUEST, "generationTime " + generated + " outside the request window at " + now);
            }
        } else if (window.requireProofOfPossession()) {
            throw new PkiException(ErrorCode.PROOF_OF_POSSESSION_FAILED, "this AA requires proof of possession of the AT key");
        }
        if (!replays.firstSeen(HashAlgorithm.SHA256.digest(decrypted.plaintext()))) {
            throw new PkiException(ErrorCode.REPLAYED_REQUEST, "request already seen within the replay window");
        }
    }

    private AuthorizationOutcome refuse(DecryptedRequest decrypted, EtsiRefusal refusal, HashedId8 eaId, Instant now) {
        refusal.log(log);
        byte[] response = AuthorizationMessages.response(decrypted, refusal.responseCode(), null, aa.signer(), aa.certificate(), now,
                encryption);
        new AuditRecord(Outcome.REFUSED, refusal.responseCode(), null, eaId, refusal.reason()).writeTo(audit);
        metrics.ticket(Outcome.REFUSED, refusal.responseCode());
        return new AuthorizationOutcome.Answered(response, refusal.responseCode());
    }
}
