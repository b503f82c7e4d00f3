package eu.vpki.aa.core;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.HashedId8;

import java.time.Instant;
import java.util.Optional;

/** Finds the EA an authorization request names ({@code eaId}) in the current trust list. */
public interface EaDirectory {
    /**
     * The EA with this HashedId8, trusted at {@code now}; empty when the current CTL lists no such EA.
     *
     * @throws PkiException when the CTL lists it but it is not usable at {@code now} (revoked, expired, chain broken)
     */
    Optional<EaEndpoint> find(HashedId8 eaId, Instant now);
}
