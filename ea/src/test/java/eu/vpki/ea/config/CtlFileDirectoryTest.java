package eu.vpki.ea.config;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.CertificateIssuer;
import eu.vpki.common.etsi.ts103097.CertificateProfiles;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.ts103097.Validity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The EA's view of the AAs from a CTL file: verified on load, re-read when it changes, at most once per check interval. */
class CtlFileDirectoryTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);

    @TempDir
    Path dir;

    /** A clock the test moves by hand. */
    private static final class StepClock extends Clock {
        private volatile Instant now = NOW;

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static EtsiCertificate aaOf(TestPki issuer, String name) {
        EtsiKeyPair key = EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM);
        return CertificateIssuer.issue(CertificateProfiles.authorizationAuthority(name,
                Validity.of(NOW.minusSeconds(600), Validity.Unit.YEARS, 1), key.publicKey(), key.publicKey(),
                CertificateProfiles.defaultAuthorizationTicketRanges(), null), issuer.root, issuer.rootSigner());
    }

    private static byte[] ctl(int sequence, CtlEntry... entries) {
        return TrustLists.signCtl(new RcaCtl(true, sequence, NOW.plus(Duration.ofDays(7)), List.of(entries), List.of()),
                NOW, PKI.rootSigner(), PKI.root);
    }

    /** Writes {@code bytes} and moves the file's modification time on, as a new file dropped in would. */
    private static void replace(Path file, byte[] bytes, int second) throws IOException {
        Files.write(file, bytes);
        Files.setLastModifiedTime(file, FileTime.from(NOW.plusSeconds(second)));
    }

    @Test
    void aasOfTheCtl_areFound_eaAndForeignAasAreNot() throws IOException {
        EtsiCertificate foreignAa = aaOf(new TestPki(EtsiCurve.NIST_P256), "Foreign AA");
        Path file = dir.resolve("ctl.oer");
        Files.write(file, ctl(1, new CtlEntry.Ea(PKI.ea, "http://ea.example/enrolment", "http://ea.example/validation"),
                new CtlEntry.Aa(PKI.aa, "http://aa.example/"), new CtlEntry.Aa(foreignAa, "http://foreign.example/")));

        CtlFileDirectory directory = new CtlFileDirectory(file, PKI.root, new StepClock());

        assertThat(directory.find(PKI.aa.hashedId8())).contains(PKI.aa);
        assertThat(directory.find(PKI.ea.hashedId8())).as("an EA is not an AA").isEmpty();
        assertThat(directory.find(foreignAa.hashedId8())).as("does not chain to the RCA").isEmpty();
        assertThat(directory.size()).isEqualTo(1);
    }

    @Test
    void newFile_isUsedFromTheNextCheck_andAnUnusableOneKeepsThePreviousCtl() throws IOException {
        EtsiCertificate secondAa = aaOf(PKI, "Second AA");
        Path file = dir.resolve("ctl.oer");
        replace(file, ctl(1, new CtlEntry.Aa(PKI.aa, "http://aa.example/")), 0);
        StepClock clock = new StepClock();
        CtlFileDirectory directory = new CtlFileDirectory(file, PKI.root, clock);

        replace(file, ctl(2, new CtlEntry.Aa(secondAa, "http://aa2.example/")), 10);
        clock.advance(CtlFileDirectory.CHECK_INTERVAL.minusMillis(1));
        assertThat(directory.find(secondAa.hashedId8())).as("not looked at within the interval").isEmpty();
        assertThat(directory.find(PKI.aa.hashedId8())).contains(PKI.aa);

        clock.advance(Duration.ofMillis(1));
        assertThat(directory.find(secondAa.hashedId8())).contains(secondAa);
        assertThat(directory.find(PKI.aa.hashedId8())).as("no longer listed").isEmpty();

        replace(file, new byte[]{0x03, (byte) 0x81, 0x00}, 20);
        clock.advance(CtlFileDirectory.CHECK_INTERVAL);
        assertThat(directory.find(secondAa.hashedId8())).as("garbage keeps the previous CTL").contains(secondAa);

        TestPki otherRca = new TestPki(EtsiCurve.NIST_P256);
        byte[] signedByAnotherRca = TrustLists.signCtl(new RcaCtl(true, 3, NOW.plus(Duration.ofDays(7)),
                List.of(new CtlEntry.Aa(PKI.aa, "http://aa.example/")), List.of()), NOW, otherRca.rootSigner(), otherRca.root);
        replace(file, signedByAnotherRca, 30);
        clock.advance(CtlFileDirectory.CHECK_INTERVAL);
        assertThat(directory.find(PKI.aa.hashedId8())).as("a CTL the RCA did not sign is not used").isEmpty();
        assertThat(directory.find(secondAa.hashedId8())).contains(secondAa);

        Files.delete(file);
        clock.advance(CtlFileDirectory.CHECK_INTERVAL);
        assertThat(directory.find(secondAa.hashedId8())).as("a vanished file keeps the previous CTL").contains(secondAa);

        replace(file, ctl(4, new CtlEntry.Aa(PKI.aa, "http://aa.example/")), 40);
        clock.advance(CtlFileDirectory.CHECK_INTERVAL);
        assertThat(directory.find(PKI.aa.hashedId8())).as("and a good one is used again").contains(PKI.aa);
        assertThat(directory.find(secondAa.hashedId8())).isEmpty();
    }

    @Test
    void missingOrUnverifiableFile_failsAtStart() throws IOException {
        Path missing = dir.resolve("missing.oer");
        assertThatThrownBy(() -> new CtlFileDirectory(missing, PKI.root, new StepClock())).isInstanceOf(java.io.UncheckedIOException.class);

        Path garbage = dir.resolve("garbage.oer");
        Files.write(garbage, new byte[]{1, 2, 3});
        assertThatThrownBy(() -> new CtlFileDirectory(garbage, PKI.root, new StepClock())).isInstanceOf(PkiException.class);
    }
}
