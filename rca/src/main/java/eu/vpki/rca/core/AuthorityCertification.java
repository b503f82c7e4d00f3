package eu.vpki.rca.core;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.ts102941.CaCertificateRequestMessages;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.CertificateTemplate;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.Validity;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Certifies EAs and AAs: from an admin request ({@link #certify(AuthorityRequest)}) or from a TS 102
 * 941 CA certificate request ({@link #certify(byte[], AuthorityRequest)}). Each field is validated
 * before anything changes (errors name the field); the certificate follows the TS 103 097 EA or AA
 * profile ({@link CertificateProfiles}: the RCA, not the requester, decides permissions), is
 * re-decoded and checked against the root by {@link CertificateIssuer}, persisted with the new CTL by
 * {@link RootCaService#apply} and audit-logged before it is returned.
 */
public final class AuthorityCertification {
    /** Largest validity: what a HOURS duration can express (65 535 h), and well beyond usual sub-CA lifetimes. */
    public static final int MAX_VALIDITY_DAYS = 65_535 / 24;
    private static final Pattern HEX = Pattern.compile("^(?:[0-9a-fA-F]{2})+$");

    private final RootCaService service;
    private final Clock clock;
    private final AuditLog audit;
    private final Map<AuthorityType, Counter> issued = new EnumMap<>(AuthorityType.class);

    public AuthorityCertification(RootCaService service, Clock clock, MeterRegistry registry, AuditLog audit) {
        this.service = service;
        this.clock = clock;
        this.audit = audit;
        for (AuthorityType t : AuthorityType.values()) {
            issued.put(t, Counter.builder("vpki.rca.certificates.issued").tag("type", t.name())
                    .description("EA/AA certificates issued").register(registry));
        }
    }

    /** A request whose fields all passed validation. */
    private record Candidate(AuthorityType type, String name, EtsiPublicKey verificationKey, EtsiPublicKey encryptionKey,
                             String itsAccessPoint, String aaAccessPoint, String accessPoint, int validityDays, String via) {
    }

    public Authority certify(AuthorityRequest r) {
        AuthorityType type = type(r.type());
        String name = name(r.name());
        EtsiCurve curve = curve("curve", r.curve());
        EtsiPublicKey verification = key("verificationKey", curve, r.verificationKey());
        EtsiCurve encCurve = r.encryptionCurve() == null || r.encryptionCurve().isBlank()
                ? curve
                : curve("encryptionCurve", r.encryptionCurve());
        EtsiPublicKey encryption = encryptionKey(encCurve, r.encryptionKey());
        return issue(candidate(type, name, verification, encryption, r, "admin-api"));
    }

    /**
     * Certifies the key of a self-signed TS 102 941 {@code CaCertificateRequest} (proof of possession
     * checked). {@code parameters} gives the type and access points (and may override the name and the
     * validity); keys and curve fields of {@code parameters} are ignored. The requested validity's
     * length is used when {@code parameters} names none; permissions always follow the profile.
     */
    public Authority certify(byte[] caCertificateRequest, AuthorityRequest parameters) {
        AuthorityType type = type(parameters.type());
        CaCertificateRequestMessages.CaRequest requested;
        try {
            requested = CaCertificateRequestMessages.parseRequest(caCertificateRequest).request();
        } catch (PkiException e) {
            throw new PkiException(e.code(), "caCertificateRequest: " + e.getMessage(), e);
        }
        String name = name(parameters.name() != null ? parameters.name() : requested.name());
        if (requested.encryptionKey() == null) {
            throw new PkiException(ErrorCode.INVALID_KEY, "encryptionKey: the CA certificate request carries no encryption key");
        }
        requireEncryptionCapable(requested.encryptionKey().curve());
        Integer days = parameters.validityDays();
        if (days == null && requested.validity() != null) {
            days = (int) Math.min(Integer.MAX_VALUE,
                    Duration.between(requested.validity().start(), requested.validity().end()).toDays());
        }
        AuthorityRequest withDays = new AuthorityRequest(parameters.type(), name, null, null, null, null, parameters.itsAccessPoint(),
                parameters.aaAccessPoint(), parameters.accessPoint(), days);
        return issue(candidate(type, name, requested.verificationKey(), requested.encryptionKey(), withDays, "ca-certificate-request"));
    }

    private Candidate candidate(AuthorityType type, String name, EtsiPublicKey verification, EtsiPublicKey encryption,
                                AuthorityRequest r, String via) {
        String its = null;
        String aa = null;
        String access = null;
        if (type == AuthorityType.EA) {
            its = url("itsAccessPoint", r.itsAccessPoint());
            aa = url("aaAccessPoint", r.aaAccessPoint());
        } else {
            access = url("accessPoint", r.accessPoint());
        }
        int days = r.validityDays() == null ? service.settings().defaultAuthorityValidityDays() : r.validityDays();
        return new Candidate(type, name, verification, encryption, its, aa, access, days, via);
    }

    private Authority issue(Candidate c) {
        EtsiCertificate root = service.root().certificate();
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        long remainingDays = Duration.between(now, root.validity().end()).toDays();
        if (c.validityDays() < 1 || c.validityDays() > Math.min(MAX_VALIDITY_DAYS, remainingDays)) {
            throw new PkiException(ErrorCode.VALIDITY_NOT_ALLOWED, "validityDays: must be 1 to "
                    + Math.min(MAX_VALIDITY_DAYS, remainingDays) + " (the root is valid until " + root.validity().end() + ")");
        }
        service.state().authorities().stream()
                .filter(a -> !a.revoked() && a.certificate().verificationKey().equals(c.verificationKey()))
                .findFirst().ifPresent(a -> {
                    throw new PkiException(ErrorCode.INVALID_ARGUMENT, "verificationKey: already certified as " + a.type() + " "
                            + a.hashedId8() + "; revoke that certificate first");
                });
        Validity validity = Validity.of(now, Validity.Unit.HOURS, c.validityDays() * 24);
        CertificateTemplate template = c.type() == AuthorityType.EA
                ? CertificateProfiles.enrolmentAuthority(c.name(), validity, c.verificationKey(), c.encryptionKey(), null)
                : CertificateProfiles.authorizationAuthority(c.name(), validity, c.verificationKey(), c.encryptionKey(),
                        CertificateProfiles.defaultAuthorizationTicketRanges(), null);
        EtsiCertificate cert = CertificateIssuer.issue(template, root, service.root().signer());
        // rare and long-lived: decoded again as a relying party would, and checked in full (signature included)
        CertificateChecks.checkIssuedBy(EtsiCertificate.decode(cert.encoded()), root, now);
        Authority authority = new Authority(c.type(), cert, c.itsAccessPoint(), c.aaAccessPoint(), c.accessPoint(), now, null);
        service.apply(s -> s.withAuthority(authority), true, false);
        issued.get(c.type()).increment();
        audit.event("authority-certified", "type", c.type().name(), "hashedId8", cert.hashedId8().toHex(), "name", c.name(),
                "via", c.via(), "verificationKey", c.verificationKey().toString(), "validFrom", validity.start().toString(),
                "validUntil", validity.end().toString(),
                "accessPoints", c.type() == AuthorityType.EA ? c.itsAccessPoint() + "," + c.aaAccessPoint() : c.accessPoint());
        return authority;
    }

    // ---- field validation: each error names its field ----

    private static AuthorityType type(String t) {
        if (t == null || t.isBlank()) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "type: required (EA or AA)");
        }
        try {
            return AuthorityType.valueOf(t.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "type: '" + t + "' is neither EA nor AA");
        }
    }

    private static String name(String n) {
        if (n == null || n.isBlank() || n.length() > 255) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "name: required, 1 to 255 characters");
        }
        return n;
    }

    private static EtsiCurve curve(String field, String name) {
        if (name == null || name.isBlank()) {
            throw new PkiException(ErrorCode.UNSUPPORTED_ALGORITHM, field + ": required (nistP256, brainpoolP256r1 or brainpoolP384r1)");
        }
        try {
            return EtsiCurve.parse(name);
        } catch (PkiException e) {
            throw new PkiException(e.code(), field + ": " + e.getMessage(), e);
        }
    }

    private static EtsiPublicKey encryptionKey(EtsiCurve curve, String text) {
        if (text == null || text.isBlank()) {
            throw new PkiException(ErrorCode.INVALID_KEY, "encryptionKey: required (stations and AAs encrypt to EAs and AAs)");
        }
        requireEncryptionCapable(curve);
        return key("encryptionKey", curve, text);
    }

    private static void requireEncryptionCapable(EtsiCurve curve) {
        if (!curve.encryptionCapable()) {
            throw new PkiException(ErrorCode.WRONG_CURVE, "encryptionCurve: " + curve.curveName()
                    + " has no ECIES encryption keys (use nistP256 or brainpoolP256r1)");
        }
    }

    static EtsiPublicKey key(String field, EtsiCurve curve, String text) {
        if (text == null || text.isBlank()) {
            throw new PkiException(ErrorCode.INVALID_KEY, field + ": required");
        }
        byte[] bytes;
        String t = text.strip();
        try {
            bytes = HEX.matcher(t).matches()
                    ? HexFormat.of().parseHex(t)
                    : t.contains("-") || t.contains("_") ? Base64.getUrlDecoder().decode(t) : Base64.getDecoder().decode(t);
        } catch (IllegalArgumentException e) {
            throw new PkiException(ErrorCode.INVALID_KEY, field + ": neither hex nor base64");
        }
        try {
            return EtsiPublicKey.fromEncodedPoint(curve, bytes);
        } catch (PkiException e) {
            throw new PkiException(e.code(), field + ": " + e.getMessage(), e);
        }
    }

    private static String url(String field, String url) {
        if (url == null || url.isBlank()) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, field + ": required");
        }
        if (!url.chars().allMatch(ch -> ch > 0x20 && ch < 0x7F)) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, field + ": must be printable ASCII without spaces");
        }
        try {
            URI u = new URI(url);
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null
                    || u.getPath() == null || u.getPath().isEmpty()) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, field + ": must be an absolute http(s) URL with a path, e.g. "
                        + "https://ea.example.eu/enrolment");
            }
        } catch (URISyntaxException e) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, field + ": not a URL (" + e.getMessage() + ")");
        }
        return url;
    }
}
