package eu.vpki.rca.core;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.HashedId8;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Clock;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * Revokes an EA or AA: it leaves the CTL (a delta deletion) and enters the CRL, both re-issued and
 * persisted before the call returns. Revoking again is harmless and changes nothing.
 */
public final class Revocation {
    private final RootCaService service;
    private final Clock clock;
    private final AuditLog audit;
    private final Map<AuthorityType, Counter> revoked = new EnumMap<>(AuthorityType.class);

    public Revocation(RootCaService service, Clock clock, MeterRegistry registry, AuditLog audit) {
        this.service = service;
        this.clock = clock;
        this.audit = audit;
        for (AuthorityType t : AuthorityType.values()) {
            revoked.put(t, Counter.builder("vpki.rca.revocations").tag("type", t.name())
                    .description("EA/AA certificates revoked").register(registry));
        }
    }

    /**
     * @throws PkiException NOT_FOUND when this root did not certify {@code id}
     */
    public Authority revoke(HashedId8 id, String reason) {
        Authority a = service.state().authority(id)
                .orElseThrow(() -> new PkiException(ErrorCode.NOT_FOUND, "hashedId8: no EA or AA " + id + " certified by this root"));
        if (a.revoked()) {
            return a;
        }
        Instant now = clock.instant();
        Authority revokedAuthority = a.revoke(now);
        service.apply(s -> s.withAuthority(revokedAuthority), true, true);
        revoked.get(a.type()).increment();
        audit.event("authority-revoked", "type", a.type().name(), "hashedId8", id.toHex(),
                "name", a.certificate().name().orElse(""), "reason", reason == null ? "" : reason);
        return revokedAuthority;
    }
}
