package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.ReceivedAtRequest;
import eu.vpki.common.etsi.ts102941.AuthorizationValidationMessages;
import eu.vpki.common.etsi.ts102941.AuthorizationValidationMessages.ValidationResult;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts103097.DataEncryption;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The AA-to-EA authorization validation round trip. Each attempt builds a fresh
 * AuthorizationValidationRequest (signed by the AA, encrypted to the EA) and posts it to one access
 * point of the EA; the first access point is rotated per request so that load spreads over the
 * replicas. An attempt that gives no readable answer (I/O error, timeout, wrong status or content
 * type, an answer that does not decrypt, verify or echo the request hash) is counted and the next
 * access point is tried; every access point is tried at most once. A readable answer, ok or
 * refusal, is final: one EA refusal is the EA's decision and is not retried elsewhere.
 */
public final class EaValidation {
    private final AaIdentity aa;
    private final AuthorizationValidationClient client;
    private final DataEncryption encryption;
    private final AaMetrics metrics;
    private final AtomicInteger rotation = new AtomicInteger();

    public EaValidation(AaIdentity aa, AuthorizationValidationClient client, DataEncryption encryption, AaMetrics metrics) {
        this.aa = aa;
        this.client = client;
        this.encryption = encryption;
        this.metrics = metrics;
    }

    /**
     * @throws PkiException {@link ErrorCode#EA_UNREACHABLE} when no access point gave a readable answer
     */
    public ValidationResult validate(ReceivedAtRequest request, EaEndpoint ea, Instant now) {
        List<URI> points = ea.accessPoints();
        int first = Math.floorMod(rotation.getAndIncrement(), points.size());
        EaCallException last = null;
        for (int i = 0; i < points.size(); i++) {
            URI point = points.get((first + i) % points.size());
            OutgoingRequest out = AuthorizationValidationMessages.request(request, aa.signer(), aa.certificate(), ea.recipient(), now, encryption);
            try {
                byte[] answer = client.validate(point, out.body());
                try {
                    return AuthorizationValidationMessages.readResponse(answer, out, ea.certificate(), encryption);
                } catch (PkiException unreadable) {
                    throw new EaCallException(EaCallException.Reason.UNREADABLE_RESPONSE,
                            "answer from " + point + " is unreadable: " + unreadable.getMessage(), unreadable);
                }
            } catch (EaCallException e) {
                metrics.eaFailure(e.reason());
                last = e;
            }
        }
        throw new PkiException(ErrorCode.EA_UNREACHABLE, "no access point of EA " + ea.certificate().hashedId8() + " answered ("
                + points.size() + " tried; last: " + last.getMessage() + ")", last);
    }
}
