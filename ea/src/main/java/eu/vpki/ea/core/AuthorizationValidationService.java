package eu.vpki.ea.core;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.EtsiRefusal;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.AuthorizationValidationMessages;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.DecryptionIdentity;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.GeographicRegion;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.fleet.EcRecord;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.Permissions;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.StationStatus;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * TS 102 941 authorization validation, the EA side: an AA of the current CTL forwards a station's
 * SharedAtRequest and EC signature; the EA checks that the EC is one it issued, is active and
 * valid, that the signature over the SharedAtRequest verifies with it, that the station is active
 * and that the requested permissions are within what its operator allowed, and answers the
 * confirmed subject attributes. The EA never sees the AT keys (they are not in the request).
 *
 * <p>A refusal is the EA's decision about the station and is answered inside an ETSI response. A
 * failure of this replica rather than of the request ({@link ErrorCode#serverSide()}: out of
 * service because it is in a minority, catching up or lost its Redis; an internal failure) decides
 * nothing about the station, so it is not answered with an ETSI code: it is thrown, the access point
 * answers it as an HTTP problem (503 for a replica out of service), and the AA tries the next replica
 * of this EA (docs/aa.md, step 7). A vehicle is never refused because the replica it happened to
 * reach could not decide.
 */
public final class AuthorizationValidationService {
    private static final Logger log = LoggerFactory.getLogger(AuthorizationValidationService.class);

    private final EaIdentity ea;
    /** Made once: it carries the SHA-256 of the EA certificate, which every request's decryption needs. */
    private final DecryptionIdentity decryption;
    private final AuditLog audit;
    private final FleetState fleet;
    private final AuthorizationAuthorityDirectory aas;
    private final Clock clock;
    private final DataEncryption encryption;
    private final EaMetrics metrics;

    public AuthorizationValidationService(EaIdentity ea, FleetState fleet, AuthorizationAuthorityDirectory aas, Clock clock,
                                          SecureRandom random, AuditLog audit, MeterRegistry registry) {
        this.audit = audit;
        this.ea = ea;
        this.decryption = ea.decryptionIdentity();
        this.fleet = fleet;
        this.aas = aas;
        this.clock = clock;
        this.encryption = new DataEncryption(random);
        this.metrics = new EaMetrics(registry, "validation");
    }

    /**
     * Answers one AuthorizationValidationRequest body: {@link #begin} and {@link Validation#answer}.
     *
     * @return the encrypted AuthorizationValidationResponse (confirmed attributes, or a refusal code)
     * @throws UndecryptableRequestException when the body cannot be decrypted
     * @throws PkiException with a {@linkplain ErrorCode#serverSide() server-side} code when this replica
     *                      could not decide (e.g. {@link ErrorCode#REPLICATION_UNAVAILABLE}): no ETSI answer
     */
    public byte[] validate(byte[] body) {
        return begin(body).answer();
    }

    /**
     * The first step of a validation, which reads nothing but memory: decrypts the body, parses and checks the
     * request, and finds whether the EC and station records it needs are kept ({@link Validation#readsStore()}).
     *
     * @throws UndecryptableRequestException when the body cannot be decrypted
     */
    public Validation begin(byte[] body) {
        long start = System.nanoTime();
        DecryptedRequest request;
        try {
            request = DecryptedRequest.decrypt(body, decryption, encryption);
        } catch (PkiException e) {
            metrics.undecryptable(start);
            EtsiRefusal.logUndecryptable(log, EtsiRefusal.Path.AUTHORIZATION_VALIDATION, e);
            throw new UndecryptableRequestException(e);
        }
        Instant now = clock.instant();
        try {
            var received = AuthorizationValidationMessages.parseRequest(request, aas::find, decryption, encryption);
            EtsiCertificate aa = received.aa();
            if (!aa.validAt(now)) {
                throw new PkiException(ErrorCode.NOT_TRUSTED, "AA " + aa.hashedId8() + " is not valid at " + now);
            }
            if (!received.eaId().equals(ea.certificate().hashedId8())) {
                throw new PkiException(ErrorCode.UNKNOWN_EA,
                        "request names EA " + received.eaId() + ", this is " + ea.certificate().hashedId8());
            }
            HashedId8 ecId = received.ecSignature().signerDigest().orElseThrow();
            return new Validation(start, now, request, received, ecId, fleet.keptEcWithStation(ecId).orElse(null), null);
        } catch (RuntimeException failure) {
            return new Validation(start, now, request, null, null, null, failure);
        }
    }

    /**
     * A validation request decrypted and parsed, to be answered: at once when {@link #readsStore()} is false, else
     * after a read of the replica's Redis (which a caller on an event loop does on another thread).
     */
    public final class Validation {
        private final long start;
        private final Instant now;
        private final DecryptedRequest request;
        private final AuthorizationValidationMessages.ReceivedValidationRequest received;
        private final HashedId8 ecId;
        private final FleetState.EcAndStation kept;
        private final RuntimeException failure;

        private Validation(long start, Instant now, DecryptedRequest request,
                           AuthorizationValidationMessages.ReceivedValidationRequest received,
                           HashedId8 ecId, FleetState.EcAndStation kept, RuntimeException failure) {
            this.start = start;
            this.now = now;
            this.request = request;
            this.received = received;
            this.ecId = ecId;
            this.kept = kept;
            this.failure = failure;
        }

        /** Whether {@link #answer} reads the replica's Redis: the request is good so far and its records are not kept. */
        public boolean readsStore() {
            return failure == null && kept == null;
        }

        /**
         * @return the encrypted AuthorizationValidationResponse (confirmed attributes, or a refusal code)
         * @throws PkiException with a {@linkplain ErrorCode#serverSide() server-side} code when this replica
         *                      could not decide (e.g. {@link ErrorCode#REPLICATION_UNAVAILABLE}): no ETSI answer
         */
        public byte[] answer() {
            try {
                if (failure != null) {
                    throw failure;
                }
                SubjectAttributes confirmed = check(received, ecId, kept != null ? kept : fleet.ecWithStation(ecId), now);
                byte[] response = AuthorizationValidationMessages.response(request, EtsiCodes.Validation.OK, confirmed, ea.signer(),
                        ea.certificate(), clock.instant(), encryption);
                metrics.ok(start);
                return response;
            } catch (RuntimeException refused) {
                EtsiRefusal refusal = EtsiRefusal.validation(refused);
                ErrorCode code = refusal.reason();
                metrics.refused(start, code);
                if (code.serverSide()) {
                    refusal.log(log, "an HTTP problem, for the AA to ask another replica");
                    throw refused instanceof PkiException pki && pki.code() == code ? pki : new PkiException(code, code.summary(), refused);
                }
                refusal.log(log);
                return AuthorizationValidationMessages.response(request, refusal.responseCode(), null,
                        ea.signer(), ea.certificate(), clock.instant(), encryption);
            }
        }
    }

    private SubjectAttributes check(AuthorizationValidationMessages.ReceivedValidationRequest received, HashedId8 ecId,
                                    FleetState.EcAndStation read, Instant now) {
        EtsiCertificate aa = received.aa();
        EcRecord ec = read.ec().orElseThrow(() -> new PkiException(ErrorCode.UNKNOWN_SIGNER, "EC " + ecId + " was not issued by this EA"));
        received.ecSignature().requireSignedBy(ec.certificate());
        if (ec.status() != EcRecord.Status.ACTIVE) {
            throw new PkiException(ErrorCode.CERTIFICATE_REVOKED, "EC " + ecId + " was superseded");
        }
        if (!ec.certificate().validAt(now)) {
            throw new PkiException(ErrorCode.CERTIFICATE_EXPIRED, "EC " + ecId + " is not valid at " + now);
        }
        StationRecord station = read.station()
                .orElseThrow(() -> new PkiException(ErrorCode.UNKNOWN_STATION, "station of EC " + ecId + " is gone"));
        if (station.status() != StationStatus.ACTIVE) {
            throw new PkiException(ErrorCode.STATION_NOT_ACTIVE, "station of EC " + ecId + " is " + station.status());
        }
        SubjectAttributes requested = received.requested();
        List<PsidSsp> permissions = requested.appPermissions().isEmpty()
                ? station.permissions().stream().filter(p -> p.psid() != Psids.SECURED_CERTIFICATE_REQUEST).toList()
                : requested.appPermissions();
        for (PsidSsp p : permissions) {
            if (!Psids.knownForAuthorizationTickets(p.psid())) {
                throw new PkiException(ErrorCode.UNKNOWN_PSID, "PSID " + p.psid() + " is not issued in ATs");
            }
            if (!Permissions.allows(station.permissions(), p)) {
                throw new PkiException(ErrorCode.PERMISSIONS_NOT_ALLOWED, p + " is not permitted to the station");
            }
        }
        if (permissions.isEmpty()) {
            throw new PkiException(ErrorCode.PERMISSIONS_NOT_ALLOWED, "the station has no AT permissions");
        }
        GeographicRegion region = Optional.ofNullable(requested.region()).orElse(station.region());
        if (!GeographicRegion.contains(station.region(), region)) {
            throw new PkiException(ErrorCode.PERMISSIONS_NOT_ALLOWED, "requested region is outside the station's region");
        }
        audit.event("at-request-validated", "operator", station.operatorId(), "aa", aa.hashedId8().toHex());
        return new SubjectAttributes(requested.validity(), region, requested.assuranceLevel(), permissions);
    }
}
