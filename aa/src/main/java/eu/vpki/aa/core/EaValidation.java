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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The AA-to-EA authorization validation round trip, asynchronous. Each attempt builds a fresh
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
     * Completes with the EA's answer (ok or refusal), or exceptionally with a {@link PkiException}
     * {@link ErrorCode#EA_UNREACHABLE} when no access point gave a readable answer.
     */
    public CompletableFuture<ValidationResult> validate(ReceivedAtRequest request, EaEndpoint ea, Instant now) {
        List<URI> points = ea.accessPoints();
        int first = Math.floorMod(rotation.getAndIncrement(), points.size());
        return attempt(request, ea, now, first, 0, null);
    }

    /** Attempt {@code i} of {@code points.size()}, from the access point {@code first + i}; {@code last}: why the one before failed. */
    private CompletableFuture<ValidationResult> attempt(ReceivedAtRequest request, EaEndpoint ea, Instant now, int first, int i,
                                                        EaCallException last) {
        List<URI> points = ea.accessPoints();
        if (i == points.size()) {
            return CompletableFuture.failedFuture(new PkiException(ErrorCode.EA_UNREACHABLE, "no access point of EA "
                    + ea.certificate().hashedId8() + " answered (" + points.size() + " tried; last: " + last.getMessage() + ")", last));
        }
        URI point = points.get((first + i) % points.size());
        OutgoingRequest out = AuthorizationValidationMessages.request(request, aa.signer(), aa.certificate(), ea.recipient(), now,
                encryption);
        return client.validate(point, out.body()).handle((answer, failure) -> {
            EaCallException failed;
            if (failure == null) {
                try {
                    return CompletableFuture
                            .completedFuture(AuthorizationValidationMessages.readResponse(answer, out, ea.certificate(), encryption));
                } catch (PkiException unreadable) {
                    failed = new EaCallException(EaCallException.Reason.UNREADABLE_RESPONSE,
                            "answer from " + point + " is unreadable: " + unreadable.getMessage(), unreadable);
                }
            } else if (unwrap(failure) instanceof EaCallException e) {
                failed = e;
            } else {
                return CompletableFuture.<ValidationResult>failedFuture(unwrap(failure));
            }
            metrics.eaFailure(failed.reason());
            return attempt(request, ea, now, first, i + 1, failed);
        }).thenCompose(Function.identity());
    }

    /** The failure inside a {@link CompletionException}. */
    static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
