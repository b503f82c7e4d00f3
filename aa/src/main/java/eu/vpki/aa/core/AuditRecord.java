package eu.vpki.aa.core;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.etsi.ts103097.HashedId8;

/**
 * One event of the AA's audit log, one per request: what came out, the AuthorizationResponseCode,
 * the AT's HashedId8 (issued only), the EA that validated (once the request could be read) and our
 * internal reason for a refusal; the time is the log's. Deliberately nothing that identifies the
 * station: no EC, no canonical id, no request hash, no key, no network address.
 */
public record AuditRecord(Outcome outcome, int responseCode, HashedId8 authorizationTicket, HashedId8 ea, ErrorCode reason) {
    /** What happened to a request. */
    public enum Outcome {
        ISSUED, REFUSED, UNDECRYPTABLE;

        public String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Records it: {@code <outcome> code=N at=HEX|- ea=HEX|- reason=NAME|-}. */
    public void writeTo(AuditLog audit) {
        audit.event(outcome.tag(), "code", Integer.toString(responseCode),
                "at", authorizationTicket == null ? "-" : authorizationTicket.toHex(),
                "ea", ea == null ? "-" : ea.toHex(),
                "reason", reason == null ? "-" : reason.name());
    }
}
