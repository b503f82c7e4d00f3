package eu.vpki.rca.core;

import eu.vpki.common.audit.AuditLog;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.SoftwareSigner;
import eu.vpki.common.etsi.ts102941.CaCertificateRequestMessages;
import eu.vpki.common.etsi.ts102941.CtlDelete;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.etsi.ts103097.Validity;
import eu.vpki.common.etsi.validation.TrustStore;
import eu.vpki.common.testing.ManualClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The Root CA core with a fixed clock, a SimpleMeterRegistry and a temporary data directory. */
class RootCaCoreTest {
    static final Instant START = Instant.parse("2026-11-20T12:00:00Z");
    static final SecureRandom RANDOM = new SecureRandom();
    static final String DC = "http://127.0.0.1:8082/";

    @TempDir
    Path dir;
    ManualClock clock;
    SimpleMeterRegistry registry;
    List<String> audit;
    List<PublishedLists> published;
    RootCa root;
    RcaSettings settings;
    RootCaService service;
    AuthorityCertification certification;
    Revocation revocation;

    @BeforeEach
    void setUp() {
        clock = new ManualClock(START);
        registry = new SimpleMeterRegistry();
        audit = new ArrayList<>();
        published = new ArrayList<>();
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM);
        SoftwareSigner signer = new SoftwareSigner(key, RANDOM);
        root = new RootCa(CertificateIssuer.selfSign(CertificateProfiles.rootCa("Test RCA", Validity.of(START, Validity.Unit.YEARS, 10),
                key.publicKey(), null, CertificateProfiles.defaultAuthorizationTicketRanges(), null), signer), signer);
        settings = new RcaSettings("Test RCA", EtsiCurve.BRAINPOOL_P256R1, 10, Duration.ofDays(7), Duration.ofDays(2), 0.5,
                List.of(DC), 365);
        start(RcaState.EMPTY);
    }

    private void start(RcaState initial) {
        service = new RootCaService(root, settings, new RcaStateStore(dir), initial, clock, registry);
        service.addSink(published::add);
        service.initialise();
        AuditLog log = (type, kv) -> audit.add(type + " " + String.join(" ", kv));
        certification = new AuthorityCertification(service, clock, registry, log);
        revocation = new Revocation(service, clock, registry, log);
    }

    static String hex(EtsiKeyPair k) {
        return HexFormat.of().formatHex(k.publicKey().compressed());
    }

    static EtsiKeyPair key() {
        return EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, RANDOM);
    }

    static AuthorityRequest ea(EtsiKeyPair v, EtsiKeyPair e) {
        return new AuthorityRequest("EA", "ea.test", "brainpoolP256r1", hex(v), null, hex(e),
                "http://127.0.0.1:8083/ea/enrolment", "http://127.0.0.1:8083/ea/authorization-validation", null, 730);
    }

    static AuthorityRequest aa(EtsiKeyPair v, EtsiKeyPair e) {
        return new AuthorityRequest("aa", "aa.test", "brainpoolP256r1", hex(v), null, hex(e), null, null,
                "http://127.0.0.1:8085/aa/authorization", null);
    }

    private RcaCtl ctl() {
        return TrustLists.readCtl(service.state().ctl().full(), root.certificate());
    }

    private RcaCtl delta() {
        return TrustLists.readCtl(service.state().ctl().delta(), root.certificate());
    }

    @Test
    void firstStart_issuesAnEmptyCtlWithTheDcAndAnEmptyCrl() {
        RcaCtl ctl = ctl();
        assertThat(ctl.full()).isTrue();
        assertThat(ctl.sequence()).isZero();
        assertThat(ctl.nextUpdate()).isEqualTo(START.plus(Duration.ofDays(7)));
        assertThat(ctl.distributionCentres()).singleElement().satisfies(d -> {
            assertThat(d.url()).isEqualTo(DC);
            assertThat(d.certificates()).containsExactly(root.certificate().hashedId8());
        });
        assertThat(TrustLists.readCrl(service.state().crl().encoded(), root.certificate()).revoked()).isEmpty();
        assertThat(published).hasSize(1);
        assertThat(Files.exists(dir.resolve(RcaStateStore.FILE_NAME))).isTrue();
    }

    @Test
    void certifiedEaAndAa_carryTheirProfilesAndAreListedWithAccessPoints() {
        EtsiKeyPair eaKey = key();
        Authority ea = certification.certify(ea(eaKey, key()));
        Authority aa = certification.certify(aa(key(), key()));

        EtsiCertificate eaCert = ea.certificate();
        assertThat(eaCert.verificationKey()).isEqualTo(eaKey.publicKey());
        assertThat(eaCert.encryptionKey()).isPresent();
        assertThat(eaCert.appPermissions()).containsExactly(
                eu.vpki.common.etsi.ts103097.PsidSsp.bitmap(Psids.SECURED_CERTIFICATE_REQUEST, CertificateProfiles.EA_SSP));
        assertThat(eaCert.certIssuePermissions()).isNotEmpty();
        assertThat(eaCert.validity().end()).isEqualTo(START.plus(Duration.ofDays(730)));
        assertThat(aa.certificate().certIssuePermissions()).singleElement()
                .satisfies(g -> assertThat(
                        g.covers(eu.vpki.common.etsi.ts103097.PsidSsp.bitmap(Psids.CAM, (byte) 1, (byte) 0xff, (byte) 0xfc))).isTrue());
        assertThat(aa.certificate().validity().end()).isEqualTo(START.plus(Duration.ofDays(365)));

        RcaCtl ctl = ctl();
        assertThat(ctl.sequence()).isEqualTo(2);
        assertThat(ctl.enrolmentAuthorities()).singleElement().satisfies(e -> {
            assertThat(e.certificate()).isEqualTo(eaCert);
            assertThat(e.itsAccessPoint()).isEqualTo("http://127.0.0.1:8083/ea/enrolment");
            assertThat(e.aaAccessPoint()).isEqualTo("http://127.0.0.1:8083/ea/authorization-validation");
        });
        assertThat(ctl.authorizationAuthorities()).singleElement()
                .satisfies(a -> assertThat(a.accessPoint()).isEqualTo("http://127.0.0.1:8085/aa/authorization"));
        assertThat(delta().additions()).singleElement()
                .satisfies(e -> assertThat(e).isInstanceOf(eu.vpki.common.etsi.ts102941.CtlEntry.Aa.class));

        TrustStore trust = TrustStore.fromCtl(root.certificate(), ctl, null);
        assertThat(trust.validate(aa.certificate(), START)).containsExactly(aa.certificate(), root.certificate());
        assertThat(registry.get("vpki.rca.certificates.issued").tag("type", "EA").counter().count()).isEqualTo(1.0);
        assertThat(registry.get("vpki.rca.ctl.sequence").gauge().value()).isEqualTo(2.0);
        assertThat(audit).anySatisfy(a -> assertThat(a).startsWith("authority-certified").contains(eaCert.hashedId8().toHex()));
        assertThat(published).hasSize(3);
    }

    @Test
    void revocation_removesFromCtlAddsToCrlAndIsIdempotent() {
        Authority aa = certification.certify(aa(key(), key()));
        Authority revoked = revocation.revoke(aa.hashedId8(), "key compromise");

        assertThat(revoked.revoked()).isTrue();
        assertThat(ctl().authorizationAuthorities()).isEmpty();
        assertThat(delta().deletions()).containsExactly(new CtlDelete.Certificate(aa.hashedId8()));
        assertThat(TrustLists.readCrl(service.state().crl().encoded(), root.certificate()).revoked()).containsExactly(aa.hashedId8());
        int sequence = service.state().ctl().sequence();

        revocation.revoke(aa.hashedId8(), "again");
        assertThat(service.state().ctl().sequence()).isEqualTo(sequence);
        assertThat(audit).filteredOn(a -> a.startsWith("authority-revoked")).hasSize(1);
        assertThatThrownBy(() -> revocation.revoke(eu.vpki.common.etsi.ts103097.HashedId8.fromHex("0011223344556677"), null))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }

    @Test
    void badInput_isRefusedNamingTheFieldAndChangesNothing() {
        RcaState before = service.state();
        EtsiKeyPair v = key();
        EtsiKeyPair e = key();
        var good = ea(v, e);
        assertRefused(new AuthorityRequest("EA", "ea", "brainpoolP256r1", "02abcd", null, hex(e), good.itsAccessPoint(),
                good.aaAccessPoint(), null, null), ErrorCode.INVALID_KEY, "verificationKey");
        assertRefused(new AuthorityRequest("EA", "ea", "brainpoolP256r1", "not a key!", null, hex(e), good.itsAccessPoint(),
                good.aaAccessPoint(), null, null), ErrorCode.INVALID_KEY, "verificationKey");
        assertRefused(new AuthorityRequest("EA", "ea", "secp999", hex(v), null, hex(e), good.itsAccessPoint(),
                good.aaAccessPoint(), null, null), ErrorCode.UNSUPPORTED_ALGORITHM, "curve");
        assertRefused(new AuthorityRequest("EA", "ea", "brainpoolP256r1", hex(v), null, hex(e), null,
                good.aaAccessPoint(), null, null), ErrorCode.INVALID_ARGUMENT, "itsAccessPoint");
        assertRefused(new AuthorityRequest("EA", "ea", "brainpoolP256r1", hex(v), null, hex(e), "ftp://x/",
                good.aaAccessPoint(), null, null), ErrorCode.INVALID_ARGUMENT, "itsAccessPoint");
        assertRefused(new AuthorityRequest("AA", "aa", "brainpoolP256r1", hex(v), null, hex(e), null, null,
                "http://127.0.0.1:8085", null), ErrorCode.INVALID_ARGUMENT, "accessPoint");
        assertRefused(new AuthorityRequest("AA", "aa", "brainpoolP256r1", hex(v), null, null, null, null,
                "http://127.0.0.1:8085/aa", null), ErrorCode.INVALID_KEY, "encryptionKey");
        assertRefused(new AuthorityRequest("AA", "aa", "brainpoolP384r1", HexFormat.of().formatHex(
                EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P384R1, RANDOM).publicKey().compressed()), null, hex(e), null, null,
                "http://127.0.0.1:8085/aa", null), ErrorCode.WRONG_CURVE, "encryptionCurve");
        assertRefused(new AuthorityRequest("RA", "x", "brainpoolP256r1", hex(v), null, hex(e), null, null, null, null),
                ErrorCode.INVALID_ARGUMENT, "type");
        assertRefused(new AuthorityRequest("AA", "aa", "brainpoolP256r1", hex(v), null, hex(e), null, null,
                "http://127.0.0.1:8085/aa", 99_999), ErrorCode.VALIDITY_NOT_ALLOWED, "validityDays");
        assertThat(service.state()).isSameAs(before);
        assertThat(published).hasSize(1);

        certification.certify(good);
        assertRefused(good, ErrorCode.INVALID_ARGUMENT, "already certified");
    }

    private void assertRefused(AuthorityRequest r, ErrorCode code, String field) {
        assertThatThrownBy(() -> certification.certify(r)).isInstanceOfSatisfying(PkiException.class, ex -> {
            assertThat(ex.code()).isEqualTo(code);
            assertThat(ex.getMessage()).contains(field);
        });
    }

    @Test
    void caCertificateRequest_certifiesTheSelfSignedKey() {
        EtsiKeyPair v = key();
        EtsiKeyPair e = key();
        byte[] request = CaCertificateRequestMessages.request(new CaCertificateRequestMessages.CaRequest("ea.from-request",
                v.publicKey(), e.publicKey(), Validity.of(START, Validity.Unit.YEARS, 1), null, null, null, null),
                new SoftwareSigner(v, RANDOM), START);
        Authority ea = certification.certify(request, new AuthorityRequest("EA", null, null, null, null, null,
                "https://ea.example/enrolment", "https://ea.example/validation", null, null));
        assertThat(ea.certificate().name()).contains("ea.from-request");
        assertThat(ea.certificate().verificationKey()).isEqualTo(v.publicKey());
        assertThat(ea.certificate().validity().end()).isEqualTo(START.plus(Duration.ofDays(365)));

        byte[] tampered = request.clone();
        tampered[tampered.length - 1] ^= 1;
        assertThatThrownBy(() -> certification.certify(tampered, new AuthorityRequest("EA", null, null, null, null, null,
                "https://ea.example/enrolment", "https://ea.example/validation", null, null)))
                .isInstanceOfSatisfying(PkiException.class, ex -> {
                    assertThat(ex.code()).isEqualTo(ErrorCode.PROOF_OF_POSSESSION_FAILED);
                    assertThat(ex.getMessage()).startsWith("caCertificateRequest");
                });
    }

    @Test
    void renewal_reissuesAtTheConfiguredFractionOfValidity() {
        int s0 = service.state().ctl().sequence();
        Instant crl0 = service.state().crl().thisUpdate();
        clock.advance(Duration.ofHours(23));
        assertThat(service.renewIfDue()).isFalse();
        clock.advance(Duration.ofHours(1)); // CRL: 2 days validity, half elapsed
        assertThat(service.renewIfDue()).isTrue();
        assertThat(service.state().crl().thisUpdate()).isAfter(crl0);
        assertThat(service.state().ctl().sequence()).isEqualTo(s0);
        clock.advance(Duration.ofDays(2).plusHours(12)); // CTL: 7 days validity, 3.5 days elapsed
        assertThat(service.renewIfDue()).isTrue();
        assertThat(service.state().ctl().sequence()).isEqualTo(s0 + 1);
        assertThat(ctl().nextUpdate()).isEqualTo(clock.instant().plus(Duration.ofDays(7)));
    }

    @Test
    void expiredAuthority_leavesTheCtlAtRenewal() {
        Authority aa = certification.certify(new AuthorityRequest("AA", "short", "brainpoolP256r1", hex(key()), null, hex(key()),
                null, null, "http://127.0.0.1:8085/aa", 1));
        assertThat(ctl().authorizationAuthorities()).hasSize(1);
        clock.advance(Duration.ofDays(1));
        assertThat(service.renewIfDue()).isTrue();
        assertThat(ctl().authorizationAuthorities()).isEmpty();
        assertThat(delta().deletions()).containsExactly(new CtlDelete.Certificate(aa.hashedId8()));
    }

    @Test
    void sequence_wrapsFrom255To0() {
        service.apply(s -> s.withCtl(new SignedCtl(254, s.ctl().issuedAt(), s.ctl().nextUpdate(), s.ctl().full(), s.ctl().delta(),
                s.ctl().listedCertificates(), s.ctl().listedDcs())), false, false);
        service.apply(s -> s, true, false);
        assertThat(ctl().sequence()).isEqualTo(255);
        service.apply(s -> s, true, false);
        assertThat(ctl().sequence()).isZero();
    }

    @Test
    void state_survivesARestart() {
        Authority ea = certification.certify(ea(key(), key()));
        Authority aa = certification.certify(aa(key(), key()));
        revocation.revoke(aa.hashedId8(), null);
        RcaState before = service.state();

        RcaState loaded = new RcaStateStore(dir).load();
        start(loaded);

        assertThat(service.state().ctl().sequence()).isEqualTo(before.ctl().sequence());
        assertThat(service.state().ctl().full()).isEqualTo(before.ctl().full());
        assertThat(service.state().crl().encoded()).isEqualTo(before.crl().encoded());
        assertThat(service.state().authorities()).extracting(Authority::hashedId8).containsExactly(ea.hashedId8(), aa.hashedId8());
        assertThat(service.state().authority(aa.hashedId8()).orElseThrow().revoked()).isTrue();
        assertThat(service.state().authority(ea.hashedId8()).orElseThrow().itsAccessPoint()).isEqualTo(ea.itsAccessPoint());
        certification.certify(aa(key(), key()));
        assertThat(service.state().ctl().sequence()).isEqualTo(before.ctl().sequence() + 1);
    }
}
