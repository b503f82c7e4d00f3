package eu.vpki.common.etsi.validation;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.Crl;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a relying party trusts: root certificates, the authorities the root's CTL lists, and the
 * revocations of its CRL. Validates a certificate by walking issuer digests up to a trusted root,
 * checking each link ({@link CertificateChecks}: signature, validity nesting, permissions, region,
 * canonical form), the time, and revocation. Immutable; build a new one when a CTL or CRL arrives.
 */
public final class TrustStore {
    private static final int MAX_CHAIN = 4;

    private final Map<HashedId8, EtsiCertificate> roots = new HashMap<>();
    private final Map<HashedId8, EtsiCertificate> authorities = new HashMap<>();
    private final Set<HashedId8> revoked;

    private TrustStore(Collection<EtsiCertificate> roots, Collection<EtsiCertificate> authorities, Collection<HashedId8> revoked) {
        for (EtsiCertificate r : roots) {
            CertificateChecks.checkIssuedBy(r, null, null);
            this.roots.put(r.hashedId8(), r);
        }
        for (EtsiCertificate a : authorities) {
            this.authorities.put(a.hashedId8(), a);
        }
        this.revoked = Set.copyOf(new HashSet<>(revoked));
    }

    /** Trust anchored in {@code roots}, with further CA certificates that must chain to them. */
    public static TrustStore of(Collection<EtsiCertificate> roots, Collection<EtsiCertificate> authorities, Collection<HashedId8> revoked) {
        return new TrustStore(roots, authorities, revoked);
    }

    /**
     * Trust as a vehicle has it: the RCA certificate, the EAs and AAs of its (full) CTL, the CRL.
     * CTL entries that do not chain to the RCA are left out rather than trusted.
     */
    public static TrustStore fromCtl(EtsiCertificate rca, RcaCtl ctl, Crl crl) {
        if (!ctl.full()) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "a trust store is built from a full CTL");
        }
        List<EtsiCertificate> cas = new ArrayList<>();
        for (CtlEntry e : ctl.additions()) {
            if (e instanceof CtlEntry.Ea ea) {
                cas.add(ea.certificate());
            } else if (e instanceof CtlEntry.Aa aa) {
                cas.add(aa.certificate());
            }
        }
        List<EtsiCertificate> chained = cas.stream().filter(c -> {
            try {
                CertificateChecks.checkIssuedBy(c, rca, null);
                return true;
            } catch (PkiException x) {
                return false;
            }
        }).toList();
        return new TrustStore(List.of(rca), chained, crl == null ? List.of() : crl.revoked());
    }

    /** A trusted, unrevoked CA certificate by its HashedId8 (e.g. the EA named by an AT request's eaId). */
    public EtsiCertificate requireAuthority(HashedId8 id, Instant at) {
        EtsiCertificate c = Optional.ofNullable(authorities.get(id)).or(() -> Optional.ofNullable(roots.get(id)))
                .orElseThrow(() -> new PkiException(ErrorCode.NOT_TRUSTED, id + " is not a trusted authority"));
        validate(c, at);
        return c;
    }

    public Optional<EtsiCertificate> authority(HashedId8 id) {
        return Optional.ofNullable(authorities.get(id));
    }

    public Collection<EtsiCertificate> authorities() {
        return List.copyOf(authorities.values());
    }

    public boolean isRevoked(HashedId8 id) {
        return revoked.contains(id);
    }

    /**
     * Validates {@code cert} at time {@code at} and returns its chain, cert first, root last.
     *
     * @throws PkiException with the first failure found
     */
    public List<EtsiCertificate> validate(EtsiCertificate cert, Instant at) {
        List<EtsiCertificate> chain = new ArrayList<>();
        EtsiCertificate current = cert;
        while (true) {
            if (revoked.contains(current.hashedId8())) {
                throw new PkiException(ErrorCode.CERTIFICATE_REVOKED, current + " is revoked");
            }
            chain.add(current);
            if (current.selfSigned()) {
                if (!roots.containsKey(current.hashedId8())) {
                    throw new PkiException(ErrorCode.NOT_TRUSTED, current + " is a root this trust store does not trust");
                }
                CertificateChecks.checkIssuedBy(current, null, at);
                return List.copyOf(chain);
            }
            if (chain.size() > MAX_CHAIN) {
                throw new PkiException(ErrorCode.NOT_TRUSTED, "chain of " + cert + " is longer than " + MAX_CHAIN);
            }
            HashedId8 issuerId = current.issuerId().orElseThrow();
            EtsiCertificate issuer = Optional.ofNullable(authorities.get(issuerId)).or(() -> Optional.ofNullable(roots.get(issuerId)))
                    .orElseThrow(() -> new PkiException(ErrorCode.UNKNOWN_ISSUER, "issuer " + issuerId + " is not trusted"));
            CertificateChecks.checkIssuedBy(current, issuer, at);
            current = issuer;
        }
    }
}
