package eu.vpki.rca.core;

import eu.vpki.common.etsi.ts103097.EtsiCertificate;

import java.time.Instant;

/** What the Root CA publishes to the DCs after each change: its certificate and the current signed lists. */
public record PublishedLists(EtsiCertificate rca, int ctlSequence, byte[] ctl, byte[] deltaCtl, Instant crlThisUpdate, byte[] crl) {
    public PublishedLists {
        ctl = ctl.clone();
        deltaCtl = deltaCtl.clone();
        crl = crl.clone();
    }

    @Override
    public byte[] ctl() {
        return ctl.clone();
    }

    @Override
    public byte[] deltaCtl() {
        return deltaCtl.clone();
    }

    @Override
    public byte[] crl() {
        return crl.clone();
    }
}
