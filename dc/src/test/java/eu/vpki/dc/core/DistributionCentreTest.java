package eu.vpki.dc.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.Crl;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.testing.RecordingAuditLog;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DistributionCentreTest {
    static TestPki pki;
    static TestPki other;
    static final Instant NEXT = NOW.plus(Duration.ofDays(7));
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    @TempDir
    Path dir;
    final RecordingAuditLog audit = new RecordingAuditLog();

    @BeforeAll
    static void pki() {
        pki = new TestPki(EtsiCurve.NIST_P256);
        other = new TestPki(EtsiCurve.NIST_P256);
    }

    DistributionCentre dc(SimpleMeterRegistry registry) {
        return new DistributionCentre(TrustedRoots.of(List.of(pki.root)), dir, CLOCK, registry, audit);
    }

    static byte[] ctl(boolean full, int seq, TestPki signer) {
        return TrustLists.signCtl(new RcaCtl(full, seq, NEXT, List.of(new CtlEntry.Aa(pki.aa, "http://127.0.0.1:8085/aa")), List.of()),
                NOW, signer.rootSigner(), signer.root);
    }

    static byte[] sha256(byte[] bytes) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] crl(Instant thisUpdate) {
        return TrustLists.signCrl(new Crl(thisUpdate, NEXT, List.of()), thisUpdate, pki.rootSigner(), pki.root);
    }

    @Test
    void acceptedLists_areServedAndSurviveARestart() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DistributionCentre dc = dc(registry);
        HashedId8 id = pki.root.hashedId8();
        assertThat(dc.complete()).isFalse();
        byte[] ctl = ctl(true, 3, pki);
        assertThat(dc.accept(ListKind.CTL, ctl, id)).isEqualTo(DistributionCentre.Outcome.ACCEPTED);
        assertThat(dc.accept(ListKind.CTL, ctl, id)).isEqualTo(DistributionCentre.Outcome.UNCHANGED);
        dc.accept(ListKind.DELTA_CTL, ctl(false, 3, pki), null);
        dc.accept(ListKind.CRL, crl(NOW), id);
        assertThat(dc.complete()).isTrue();
        assertThat(dc.list(id, ListKind.CTL).body()).isEqualTo(ctl);
        assertThat(dc.list(id, ListKind.CTL).cacheUntil()).isEqualTo(NEXT);
        assertThat(registry.get("vpki.dc.ctl.sequence").gauge().value()).isEqualTo(3.0);
        assertThat(audit.lines()).hasSize(3).first().asString()
                .isEqualTo("list-accepted kind=ctl rca=" + id.toHex() + " sequence=3 sha256=" + HexFormat.of().formatHex(sha256(ctl)));
        assertThat(audit.lines().get(2)).startsWith("list-accepted kind=crl rca=" + id.toHex() + " thisUpdate=" + NOW);

        DistributionCentre restarted = dc(new SimpleMeterRegistry());
        assertThat(restarted.complete()).isTrue();
        assertThat(restarted.list(id, ListKind.CTL).body()).isEqualTo(ctl);
        assertThat(restarted.list(id, ListKind.DELTA_CTL).contentType()).isEqualTo("application/x-its-ctl");
    }

    @Test
    void foreignStaleOrMisfiledLists_areRefused() {
        DistributionCentre dc = dc(new SimpleMeterRegistry());
        HashedId8 id = pki.root.hashedId8();
        assertRefused(() -> dc.accept(ListKind.CTL, ctl(true, 1, other), null), ErrorCode.UNKNOWN_SIGNER);
        assertRefused(() -> dc.accept(ListKind.CTL, ctl(true, 1, other), id), ErrorCode.UNKNOWN_SIGNER);
        assertRefused(() -> dc.accept(ListKind.CTL, ctl(false, 1, pki), id), ErrorCode.UNEXPECTED_CONTENT);
        assertRefused(() -> dc.accept(ListKind.CTL, crl(NOW), id), ErrorCode.UNEXPECTED_CONTENT);
        assertRefused(() -> dc.accept(ListKind.DELTA_CTL, ctl(false, 1, pki), id), ErrorCode.STALE_DATA);
        dc.accept(ListKind.CTL, ctl(true, 5, pki), id);
        assertRefused(() -> dc.accept(ListKind.CTL, ctl(true, 4, pki), id), ErrorCode.STALE_DATA);
        assertRefused(() -> dc.accept(ListKind.CTL, ctl(true, 5, pki), id), ErrorCode.STALE_DATA);
        dc.accept(ListKind.CRL, crl(NOW), id);
        assertRefused(() -> dc.accept(ListKind.CRL, crl(NOW.minusSeconds(1)), id), ErrorCode.STALE_DATA);
        assertThat(dc.list(id, ListKind.CTL).body()).isNotNull();
        assertRefused(() -> dc.list(other.root.hashedId8(), ListKind.CTL), ErrorCode.NOT_FOUND);
    }

    @Test
    void tamperedFileOnDisk_isIgnoredAtStart() throws Exception {
        DistributionCentre dc = dc(new SimpleMeterRegistry());
        dc.accept(ListKind.CTL, ctl(true, 1, pki), null);
        Path file = dir.resolve(pki.root.hashedId8().toHex()).resolve("ctl.coer");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 1] ^= 1;
        Files.write(file, bytes);
        assertRefused(() -> dc(new SimpleMeterRegistry()).list(pki.root.hashedId8(), ListKind.CTL), ErrorCode.NOT_FOUND);
    }

    @Test
    void nonRootCertificate_isNotTrusted() {
        assertThatThrownBy(() -> TrustedRoots.of(List.of(pki.ea))).isInstanceOf(PkiException.class);
        assertRefused(() -> TrustedRoots.of(List.of()), ErrorCode.INVALID_ARGUMENT);
    }

    static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, ErrorCode code) {
        assertThatThrownBy(call).isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(code));
    }
}
