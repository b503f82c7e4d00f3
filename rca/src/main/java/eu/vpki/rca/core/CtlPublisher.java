package eu.vpki.rca.core;

import eu.vpki.common.distribution.CtlSequence;
import eu.vpki.common.etsi.ts102941.CtlDelete;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.HashedId8;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Issues the Root CA's CTL (TS 102 941 clause 6.3.2): a full list of every listed EA (certificate,
 * {@code itsAccessPoint}, {@code aaAccessPoint}), every listed AA (certificate, {@code accessPoint})
 * and every DC (URL, serving this root), plus the delta against the previous issuance (additions and
 * deletions), both under the same {@code ctlSequence}.
 *
 * <p>Each issuance takes the next sequence number, also when nothing but {@code nextUpdate} changed,
 * so a relying party can always tell the newer list. The sequence wraps from 255 to 0 as the UINT8
 * allows; relying parties order sequences as serial numbers ({@link CtlSequence}), and the DCs and
 * {@code TrustListClient} do so. The first issuance is sequence 0 and its delta adds everything.
 */
public final class CtlPublisher {
    private final RootCa root;
    private final RcaSettings settings;

    public CtlPublisher(RootCa root, RcaSettings settings) {
        this.root = root;
        this.settings = settings;
    }

    public SignedCtl issue(RcaState state, Instant now) {
        Instant issuedAt = now.truncatedTo(ChronoUnit.SECONDS);
        Instant nextUpdate = issuedAt.plus(settings.ctlValidity());
        SignedCtl previous = state.ctl();
        int sequence = previous == null ? 0 : CtlSequence.next(previous.sequence());

        List<CtlEntry> entries = new ArrayList<>();
        List<String> certificates = new ArrayList<>();
        for (Authority a : state.authorities()) {
            if (a.listedAt(issuedAt)) {
                entries.add(a.ctlEntry());
                certificates.add(a.hashedId8().toHex());
            }
        }
        List<String> dcs = settings.distributionCentres();
        for (String dc : dcs) {
            entries.add(new CtlEntry.Dc(dc, List.of(root.certificate().hashedId8())));
        }
        byte[] full = TrustLists.signCtl(new RcaCtl(true, sequence, nextUpdate, entries, List.of()), issuedAt,
                root.signer(), root.certificate());

        List<String> oldCertificates = previous == null ? List.of() : previous.listedCertificates();
        List<String> oldDcs = previous == null ? List.of() : previous.listedDcs();
        List<CtlEntry> additions = new ArrayList<>();
        List<CtlDelete> deletions = new ArrayList<>();
        for (CtlEntry e : entries) {
            boolean isNew = e instanceof CtlEntry.Dc dc
                    ? !oldDcs.contains(dc.url())
                    : !oldCertificates.contains(certificateOf(e).toHex());
            if (isNew) {
                additions.add(e);
            }
        }
        for (String c : oldCertificates) {
            if (!certificates.contains(c)) {
                deletions.add(new CtlDelete.Certificate(HashedId8.fromHex(c)));
            }
        }
        for (String d : oldDcs) {
            if (!dcs.contains(d)) {
                deletions.add(new CtlDelete.Dc(d));
            }
        }
        byte[] delta = TrustLists.signCtl(new RcaCtl(false, sequence, nextUpdate, additions, deletions), issuedAt,
                root.signer(), root.certificate());
        return new SignedCtl(sequence, issuedAt, nextUpdate, full, delta, certificates, dcs);
    }

    private static HashedId8 certificateOf(CtlEntry e) {
        return e instanceof CtlEntry.Ea ea ? ea.certificate().hashedId8() : ((CtlEntry.Aa) e).certificate().hashedId8();
    }
}
