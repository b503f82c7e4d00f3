package eu.vpki.rca.core;

import eu.vpki.common.etsi.ts102941.Crl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.HashedId8;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Issues the Root CA's CRL (TS 102 941 clause 6.3.3): {@code thisUpdate}, {@code nextUpdate} and the
 * HashedId8 of every revoked EA/AA certificate that has not yet expired (an expired certificate
 * fails validation anyway, so the list does not grow forever).
 */
public final class CrlPublisher {
    private final RootCa root;
    private final RcaSettings settings;

    public CrlPublisher(RootCa root, RcaSettings settings) {
        this.root = root;
        this.settings = settings;
    }

    public SignedCrl issue(RcaState state, Instant now) {
        Instant thisUpdate = now.truncatedTo(ChronoUnit.SECONDS);
        Instant nextUpdate = thisUpdate.plus(settings.crlValidity());
        List<HashedId8> revoked = state.authorities().stream()
                .filter(a -> a.revoked() && thisUpdate.isBefore(a.certificate().validity().end()))
                .map(Authority::hashedId8).toList();
        byte[] encoded = TrustLists.signCrl(new Crl(thisUpdate, nextUpdate, revoked), thisUpdate, root.signer(), root.certificate());
        return new SignedCrl(thisUpdate, nextUpdate, encoded);
    }
}
