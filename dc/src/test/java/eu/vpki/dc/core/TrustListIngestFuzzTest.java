package eu.vpki.dc.core;

import com.code_intelligence.jazzer.junit.FuzzTest;
import eu.vpki.common.etsi.ts102941.Crl;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.testing.FuzzContract;
import eu.vpki.common.testing.FuzzCorpus;
import eu.vpki.common.testing.RecordingAuditLog;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzz target for the DC's CTL and CRL ingest, {@link DistributionCentre#accept}, trusting the root
 * of {@link TestPki#fixed()}. The first input byte picks the list kind and whether the publish URL
 * names the root; the rest is the posted body. Property: {@code FuzzContract}. Long run:
 * docs/security.md ("Fuzzing").
 */
@Tag("fuzz") // a JVM of its own (the root pom's execution fuzz-targets)
class TrustListIngestFuzzTest {
    private static final TestPki PKI = TestPki.fixed();
    private static final ListKind[] KINDS = ListKind.values();
    private static final DistributionCentre DC = distributionCentre();

    private static DistributionCentre distributionCentre() {
        try {
            return new DistributionCentre(TrustedRoots.of(List.of(PKI.root)), Files.createTempDirectory("dc-fuzz"),
                    Clock.fixed(NOW, ZoneOffset.UTC), new SimpleMeterRegistry(), new RecordingAuditLog());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "")
    void ingest(byte[] input) {
        if (input.length == 0) {
            return;
        }
        ListKind kind = KINDS[(input[0] & 0x7f) % KINDS.length];
        var expectedRca = (input[0] & 0x80) != 0 ? PKI.root.hashedId8() : null;
        byte[] body = Arrays.copyOfRange(input, 1, input.length);
        FuzzContract.check(() -> DC.accept(kind, body, expectedRca));
    }

    /**
     * Writes real lists signed by the fixed root as seeds (each accepted by a fresh DC):
     * {@code mvn -pl dc -am test -Dtest=TrustListIngestFuzzTest#writeSeeds -Dvpki.fuzz.write-seeds=true -Dsurefire.failIfNoSpecifiedTests=false}.
     */
    @Test
    @EnabledIfSystemProperty(named = "vpki.fuzz.write-seeds", matches = "true")
    void writeSeeds() throws IOException {
        FuzzCorpus corpus = FuzzCorpus.of(TrustListIngestFuzzTest.class);
        DistributionCentre fresh = distributionCentre();
        var next = NOW.plusSeconds(7 * 86_400);
        byte[] ctl = TrustLists.signCtl(new RcaCtl(true, 3, next, List.of(new CtlEntry.Ea(PKI.ea, null, "http://127.0.0.1:8081/ea"),
                new CtlEntry.Aa(PKI.aa, "http://127.0.0.1:8085/aa")), List.of()), NOW, PKI.rootSigner(), PKI.root);
        byte[] delta = TrustLists.signCtl(new RcaCtl(false, 3, next, List.of(), List.of()), NOW, PKI.rootSigner(), PKI.root);
        byte[] crl = TrustLists.signCrl(new Crl(NOW, next, List.of(PKI.aa.hashedId8())), NOW, PKI.rootSigner(), PKI.root);
        assertThat(fresh.accept(ListKind.CTL, ctl, PKI.root.hashedId8())).isEqualTo(DistributionCentre.Outcome.ACCEPTED);
        assertThat(fresh.accept(ListKind.DELTA_CTL, delta, null)).isEqualTo(DistributionCentre.Outcome.ACCEPTED);
        assertThat(fresh.accept(ListKind.CRL, crl, PKI.root.hashedId8())).isEqualTo(DistributionCentre.Outcome.ACCEPTED);
        corpus.write("ingest", "ctl", prefixed(0x80 | ListKind.CTL.ordinal(), ctl));
        corpus.write("ingest", "delta-ctl", prefixed(ListKind.DELTA_CTL.ordinal(), delta));
        corpus.write("ingest", "crl", prefixed(0x80 | ListKind.CRL.ordinal(), crl));
    }

    private static byte[] prefixed(int first, byte[] body) {
        byte[] out = new byte[body.length + 1];
        out[0] = (byte) first;
        System.arraycopy(body, 0, out, 1, body.length);
        return out;
    }
}
