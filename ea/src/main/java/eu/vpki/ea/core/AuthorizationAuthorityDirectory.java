package eu.vpki.ea.core;

import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;

import java.util.Optional;

/**
 * The AAs the EA accepts validation requests from: those of the current CTL. The shell backs it by
 * the trust-list client (or a CTL file); tests use an in-memory map.
 */
@FunctionalInterface
public interface AuthorizationAuthorityDirectory {
    /** The AA certificate with this HashedId8, if the current CTL lists it. */
    Optional<EtsiCertificate> find(HashedId8 id);
}
