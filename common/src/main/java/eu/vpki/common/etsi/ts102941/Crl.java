package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.etsi.ts103097.HashedId8;

import java.time.Instant;
import java.util.List;

/** The content of a certificate revocation list (TS 102 941 ToBeSignedCrl): revoked CA certificates by HashedId8. */
public record Crl(Instant thisUpdate, Instant nextUpdate, List<HashedId8> revoked) {
    public Crl {
        revoked = List.copyOf(revoked);
    }

    public boolean isRevoked(HashedId8 id) {
        return revoked.contains(id);
    }
}
