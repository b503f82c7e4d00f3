package eu.vpki.ea.core;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.error.EtsiRefusal;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.HashAlgorithm;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.EnrolmentMessages;
import eu.vpki.common.etsi.ts102941.SubjectAttributes;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.GeographicRegion;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.ts103097.Validity;
import eu.vpki.common.fleet.EcRecord;
import eu.vpki.common.fleet.FleetCommands;
import eu.vpki.common.fleet.FleetKeys;
import eu.vpki.common.fleet.FleetState;
import eu.vpki.common.fleet.Permissions;
import eu.vpki.common.fleet.StationRecord;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.common.fleet.VersionClock;
import eu.vpki.common.replay.ReplayCache;
import eu.vpki.common.replication.Acknowledgement;
import eu.vpki.common.replication.Replica;
import eu.vpki.common.replication.ReplicationException;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * TS 102 941 enrolment: decrypt, parse (proof of possession verified by the codec), check the
 * outer signature against the registered canonical key (initial) or the current EC (re-enrolment),
 * check the station and what it asks for against its registration, issue the EC (re-decoded and
 * checked by {@link CertificateIssuer}), replicate it, and answer an EnrolmentResponse encrypted
 * with the request's AES key. Every refusal after decryption is such a response with the code from
 * {@link EtsiRefusal}. Step by step: {@code docs/ea.md}.
 */
public final class EnrolmentService {
    private static final Logger log = LoggerFactory.getLogger(EnrolmentService.class);
    /** Latest start an explicitly requested EC validity may have. */
    private static final Duration MAX_START_DELAY = Duration.ofDays(1);

    private final EaIdentity ea;
    private final FleetState fleet;
    private final Replica replica;
    private final Clock clock;
    private final DataEncryption encryption;
    private final EaSettings settings;
    private final ReplayCache replays;
    private final AuditLog audit;
    private final VersionClock versions;
    private final EaMetrics metrics;

    /**
     * @param replays fingerprints (SHA-256 of the decrypted request) of requests of authenticated stations that
     *                passed every check, kept for {@code settings.requestWindow() + clockSkew()} (the service
     *                shell's cache; local to this replica; replays at other replicas: the fleet state)
     * @param audit   the EA's audit log: one event per issued EC
     */
    public EnrolmentService(EaIdentity ea, FleetState fleet, Replica replica, Clock clock, SecureRandom random,
                            EaSettings settings, ReplayCache replays, AuditLog audit, MeterRegistry registry) {
        this.ea = ea;
        this.fleet = fleet;
        this.replica = replica;
        this.clock = clock;
        this.encryption = new DataEncryption(random);
        this.settings = settings;
        this.replays = replays;
        this.audit = audit;
        this.versions = new VersionClock(clock);
        this.metrics = new EaMetrics(registry, "enrolment");
    }

    /**
     * Answers one enrolment request body.
     *
     * @return the encrypted EnrolmentResponse (with the EC, or with a refusal code)
     * @throws UndecryptableRequestException when the body cannot be decrypted: no response can be encrypted
     */
    public byte[] enrol(byte[] body) {
        long start = System.nanoTime();
        DecryptedRequest request;
        try {
            request = DecryptedRequest.decrypt(body, ea.decryptionIdentity(), encryption);
        } catch (PkiException e) {
            metrics.undecryptable(start);
            EtsiRefusal.logUndecryptable(log, EtsiRefusal.Path.ENROLMENT, e);
            throw new UndecryptableRequestException(e);
        }
        try {
            EtsiCertificate ec = issue(request);
            byte[] response = EnrolmentMessages.response(request, EtsiCodes.Enrolment.OK, ec, ea.signer(), ea.certificate(),
                    clock.instant(), encryption);
            metrics.ok(start);
            return response;
        } catch (RuntimeException failure) {
            EtsiRefusal refusal = EtsiRefusal.enrolment(failure);
            refusal.log(log);
            metrics.refused(start, refusal.reason());
            return EnrolmentMessages.response(request, refusal.responseCode(), null, ea.signer(),
                    ea.certificate(), clock.instant(), encryption);
        }
    }

    private EtsiCertificate issue(DecryptedRequest request) {
        EnrolmentMessages.ReceivedEcRequest received = EnrolmentMessages.parseRequest(request);
        SignedMessage outer = received.outerSignature();
        Instant now = clock.instant();
        Instant generated = outer.generationTime()
                .orElseThrow(() -> new PkiException(ErrorCode.OUTDATED_REQUEST, "request carries no generation time"));
        requireFresh(generated, now);

        StationRecord station;
        Optional<EcRecord> superseded;
        // the version of the station's latest EC as read here: the new EC and its pointer are written above it
        long followed;
        if (received.initial()) {
            FleetState.StationAndLatestEc read = registeredStation(received.request().itsId());
            station = read.station().orElseThrow();
            outer.requireSelfSignedBy(station.canonicalKey(), ErrorCode.CANONICAL_KEY_MISMATCH);
            requireNewerThan(read.latestEc(), generated, station.canonicalId());
            superseded = read.latestEc().filter(ec -> ec.status() == EcRecord.Status.ACTIVE);
            followed = read.latestEc().map(EcRecord::version).orElse(0L);
        } else {
            HashedId8 currentId = outer.signerDigest().orElseThrow();
            FleetState.EcAndStation read = fleet.ecWithStation(currentId);
            EcRecord current = read.ec()
                    .orElseThrow(() -> new PkiException(ErrorCode.UNKNOWN_SIGNER, "EC " + currentId + " was not issued by this EA"));
            outer.requireSignedBy(current.certificate());
            if (!Arrays.equals(received.request().itsId(), currentId.bytes())) {
                throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "a re-enrolment's itsId must be the current EC's HashedId8");
            }
            if (current.status() != EcRecord.Status.ACTIVE) {
                throw new PkiException(ErrorCode.CERTIFICATE_REVOKED, "EC " + currentId + " was superseded by a later enrolment");
            }
            if (!current.certificate().validAt(now)) {
                throw new PkiException(ErrorCode.CERTIFICATE_EXPIRED, "EC " + currentId + " is not valid at " + now);
            }
            station = read.station()
                    .orElseThrow(() -> new PkiException(ErrorCode.UNKNOWN_STATION, "station of EC " + currentId + " is gone"));
            requireNewerThan(Optional.of(current), generated, station.canonicalId());
            superseded = Optional.of(current);
            followed = current.version();
        }
        if (station.status() != StationStatus.ACTIVE) {
            throw new PkiException(ErrorCode.STATION_NOT_ACTIVE, "station " + station.canonicalId() + " is " + station.status());
        }
        SubjectAttributes requested = received.request().requested();
        requirePermitted(requested.appPermissions(), station);
        GeographicRegion region = region(requested.region(), station);
        Validity validity = validity(requested.validity(), station, now);

        // the last check: only a request of an authenticated station that passed every other check is remembered,
        // keyed on what it says (the decrypted request), not on how it was encrypted
        if (!replays.firstSeen(HashAlgorithm.SHA256.digest(request.plaintext()))) {
            throw new PkiException(ErrorCode.REPLAYED_REQUEST,
                    "request already received at this replica within " + settings.requestWindow());
        }
        EtsiCertificate ec = CertificateIssuer.issue(CertificateProfiles.enrolmentCredential(validity,
                received.request().verificationKey(), received.request().encryptionKey(), region), ea.certificate(), ea.signer());
        // above the version read, not the wall clock alone: a replica whose clock runs behind the one that issued the
        // latest EC must still move the station's pointer to the EC it issues now (issue #38, docs/replication.md)
        EcRecord issued = new EcRecord(ec, station.canonicalId(), EcRecord.Status.ACTIVE, versions.nextAbove(followed), generated);
        Optional<EcRecord> old = superseded.map(s -> s.superseded(versions.nextAbove(s.version())));
        Acknowledgement ack = replicate(issued, old);
        audit.event("ec-issued", "ec", ec.hashedId8().toHex(), "station", station.canonicalId(), "operator", station.operatorId(),
                "kind", received.initial() ? "initial" : "re-enrolment", "validUntil", validity.end().toString(),
                "replicas", Integer.toString(ack.replicas()), "command", ack.token().toString());
        return ec;
    }

    /**
     * A request is fresh if its generation time lies in {@code [now - request-window, now + clock-skew]}.
     * Replays are refused later, once the station is authenticated: by the fleet state at every replica
     * ({@link #requireNewerThan}) and by this replica's cache of decrypted requests (it keeps
     * fingerprints for the window plus the skew, after which the freshness check refuses them anyway).
     */
    private void requireFresh(Instant generationTime, Instant now) {
        if (generationTime.isBefore(now.minus(settings.requestWindow())) || generationTime.isAfter(now.plus(settings.clockSkew()))) {
            throw new PkiException(ErrorCode.OUTDATED_REQUEST, "generation time " + generationTime + " outside ["
                    + now.minus(settings.requestWindow()) + ", " + now.plus(settings.clockSkew()) + "]");
        }
    }

    /**
     * Replicated replay check: a station's request must be newer than the request its latest EC answered
     * (kept with the EC in the fleet state, so every replica that applied the EC refuses a replay of it, or
     * of anything older, however it is re-encrypted).
     */
    private static void requireNewerThan(Optional<EcRecord> latest, Instant generated, String stationId) {
        Instant previous = latest.map(EcRecord::requestTime).orElse(null);
        if (previous != null && !generated.isAfter(previous)) {
            throw new PkiException(ErrorCode.REPLAYED_REQUEST, "request of station " + stationId + " generated at " + generated
                    + ", not after the request of its latest EC (" + previous + ")");
        }
    }

    /** The station named by an initial request's itsId, with its latest EC (read together). */
    private FleetState.StationAndLatestEc registeredStation(byte[] itsId) {
        String id = new String(itsId, StandardCharsets.US_ASCII);
        if (!FleetKeys.ID.matcher(id).matches() || !Arrays.equals(id.getBytes(StandardCharsets.US_ASCII), itsId)) {
            throw new PkiException(ErrorCode.UNKNOWN_STATION, "itsId is not a registrable canonical id");
        }
        FleetState.StationAndLatestEc read = fleet.stationWithLatestEc(id);
        if (read.station().isEmpty()) {
            throw new PkiException(ErrorCode.UNKNOWN_STATION, "station " + id + " is not registered");
        }
        return read;
    }

    /** An EC carries only 623; a request may list it (no SSP or within 01C0) and permissions the operator allowed. */
    private static void requirePermitted(List<PsidSsp> requested, StationRecord station) {
        for (PsidSsp p : requested) {
            boolean ok = p.psid() == Psids.SECURED_CERTIFICATE_REQUEST
                    ? p.kind() == PsidSsp.SspKind.NONE
                            || Permissions.allows(List.of(PsidSsp.bitmap(p.psid(), CertificateProfiles.EC_SSP)), p)
                    : Permissions.allows(station.permissions(), p);
            if (!ok) {
                throw new PkiException(ErrorCode.PERMISSIONS_NOT_ALLOWED, p + " is not permitted to station " + station.canonicalId());
            }
        }
    }

    private static GeographicRegion region(GeographicRegion requested, StationRecord station) {
        if (requested == null) {
            return station.region();
        }
        if (!GeographicRegion.contains(station.region(), requested)) {
            throw new PkiException(ErrorCode.PERMISSIONS_NOT_ALLOWED, "requested region is outside the station's region");
        }
        return requested;
    }

    /**
     * The requested validity if it is within the station's maximum and the EA's own; else from the
     * backdated start ({@link Validity#backdatedStart}), as long as allowed counted from that start.
     */
    private Validity validity(Validity requested, StationRecord station, Instant now) {
        Instant eaEnd = ea.certificate().validity().end();
        if (requested != null) {
            Duration length = Duration.between(requested.start(), requested.end());
            if (length.compareTo(station.maxEcValidity()) > 0 || requested.end().isAfter(eaEnd)
                    || requested.start().isBefore(now.minus(settings.requestWindow()))
                    || requested.start().isAfter(now.plus(MAX_START_DELAY))) {
                throw new PkiException(ErrorCode.VALIDITY_NOT_ALLOWED, "requested validity " + requested.start() + " to "
                        + requested.end() + " exceeds " + station.maxEcValidity() + " or the EA's validity");
            }
            return requested;
        }
        Instant start = Validity.backdatedStart(now, settings.ecBackdate(), ea.certificate().validity().start());
        long seconds = Math.min(station.maxEcValidity().toSeconds(), Duration.between(start, eaEnd).toSeconds());
        if (seconds <= 0) {
            throw new PkiException(ErrorCode.CERTIFICATE_EXPIRED, "the EA certificate is no longer valid");
        }
        if (seconds > 65_535) {
            seconds -= seconds % 3_600;
        }
        return Validity.ofSeconds(start, seconds);
    }

    private Acknowledgement replicate(EcRecord issued, Optional<EcRecord> superseded) {
        try {
            return replica.submitAndWait(FleetCommands.enrolled(issued, superseded), settings.replicationTimeout());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof PkiException refused && refused.code() == ErrorCode.STORAGE_FULL) {
                throw refused; // nothing was sent: this replica's Redis is at its memory limit
            }
            throw new PkiException(ErrorCode.REPLICATION_UNAVAILABLE, "EC " + issued.id() + " not replicated: " + cause, cause);
        } catch (TimeoutException e) {
            throw new PkiException(ErrorCode.REPLICATION_UNAVAILABLE, "EC " + issued.id() + " not replicated within "
                    + settings.replicationTimeout(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PkiException(ErrorCode.REPLICATION_UNAVAILABLE, "interrupted replicating EC " + issued.id(), e);
        } catch (ReplicationException | IllegalArgumentException e) {
            throw new PkiException(ErrorCode.REPLICATION_UNAVAILABLE, "EC " + issued.id() + " not replicated: " + e, e);
        }
    }
}
