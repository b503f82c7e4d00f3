package eu.vpki.rca.core;

import java.time.Instant;
import java.util.List;

/**
 * The CTL as last issued: sequence, times, the signed full and delta lists, and what the full list
 * listed (certificate HashedId8s in hex and DC URLs), against which the next delta is computed.
 */
public record SignedCtl(int sequence, Instant issuedAt, Instant nextUpdate, byte[] full, byte[] delta,
                        List<String> listedCertificates, List<String> listedDcs) {
    public SignedCtl {
        full = full.clone();
        delta = delta.clone();
        listedCertificates = List.copyOf(listedCertificates);
        listedDcs = List.copyOf(listedDcs);
    }

    @Override
    public byte[] full() {
        return full.clone();
    }

    @Override
    public byte[] delta() {
        return delta.clone();
    }
}
