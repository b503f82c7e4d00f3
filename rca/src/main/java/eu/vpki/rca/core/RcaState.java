package eu.vpki.rca.core;

import eu.vpki.common.etsi.ts103097.HashedId8;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything the Root CA must not lose: the authorities it certified (and which are revoked), the
 * last CTL with its sequence number and the last CRL. Immutable; a change makes a new state, which
 * {@link RcaStateStore} writes before anyone is answered.
 */
public record RcaState(List<Authority> authorities, SignedCtl ctl, SignedCrl crl) {
    public static final RcaState EMPTY = new RcaState(List.of(), null, null);

    public RcaState {
        authorities = List.copyOf(authorities);
    }

    public Optional<Authority> authority(HashedId8 id) {
        return authorities.stream().filter(a -> a.hashedId8().equals(id)).findFirst();
    }

    public RcaState withAuthority(Authority a) {
        List<Authority> list = new ArrayList<>(authorities);
        list.removeIf(x -> x.hashedId8().equals(a.hashedId8()));
        list.add(a);
        return new RcaState(list, ctl, crl);
    }

    public RcaState withCtl(SignedCtl c) {
        return new RcaState(authorities, c, crl);
    }

    public RcaState withCrl(SignedCrl c) {
        return new RcaState(authorities, ctl, c);
    }
}
