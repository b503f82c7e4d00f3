package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiRefusal;
import eu.vpki.common.error.EtsiCodes.Authorization;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.etsi.validation.TrustStore;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CtlEaDirectoryTest {
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);
    private static final URI REPLICA_2 = URI.create("http://ea-2.test:8083/aa/validation");
    private static final RcaCtl CTL = new RcaCtl(true, 1, NOW.plus(Duration.ofDays(1)), List.of(
            new CtlEntry.Ea(PKI.ea, "http://ea.test/enrolment", "http://ea.test/aa/validation"),
            new CtlEntry.Aa(PKI.aa, "http://aa.test/aa/authorization")), List.of());

    private static TrustStore trust(HashedId8... revoked) {
        return TrustStore.of(List.of(PKI.root), List.of(PKI.ea, PKI.aa), List.of(revoked));
    }

    @Test
    void findsTheEa_withTheCtlAccessPointFirst_thenConfiguredReplicas() {
        CtlEaDirectory directory = new CtlEaDirectory(() -> trust(), () -> CTL, Map.of(PKI.ea.hashedId8(), List.of(REPLICA_2)));
        EaEndpoint ea = directory.find(PKI.ea.hashedId8(), NOW).orElseThrow();
        assertThat(ea.certificate()).isEqualTo(PKI.ea);
        assertThat(ea.accessPoints()).containsExactly(URI.create("http://ea.test/aa/validation"), REPLICA_2);
    }

    @Test
    void configuredAccessPoints_replaceTheCtlsAndTheReplicas() {
        URI regional = URI.create("http://ea-3.us.test:8083/aa/validation");
        CtlEaDirectory directory = new CtlEaDirectory(() -> trust(), () -> CTL, Map.of(PKI.ea.hashedId8(), List.of(REPLICA_2)),
                Map.of(PKI.ea.hashedId8(), List.of(regional)));
        assertThat(directory.find(PKI.ea.hashedId8(), NOW).orElseThrow().accessPoints()).containsExactly(regional);
    }

    @Test
    void anAaOrAnUnknownId_isNoEa() {
        CtlEaDirectory directory = new CtlEaDirectory(() -> trust(), () -> CTL, Map.of());
        assertThat(directory.find(PKI.aa.hashedId8(), NOW)).isEmpty();
        assertThat(directory.find(PKI.root.hashedId8(), NOW)).isEmpty();
        assertThat(directory.find(HashedId8.fromHex("0000000000000000"), NOW)).isEmpty();
    }

    @Test
    void aRevokedEa_isRefusedAsInvalidEa() {
        CtlEaDirectory directory = new CtlEaDirectory(() -> trust(PKI.ea.hashedId8()), () -> CTL, Map.of());
        assertThatThrownBy(() -> directory.find(PKI.ea.hashedId8(), NOW)).isInstanceOfSatisfying(PkiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CERTIFICATE_REVOKED);
            assertThat(EtsiRefusal.authorization(e).responseCode()).isEqualTo(Authorization.ITS_AA_INVALIDEA);
        });
    }

    @Test
    void validationIsCachedPerSnapshot_andRedoneWhenANewCrlArrives() {
        AtomicReference<TrustStore> current = new AtomicReference<>(trust());
        CtlEaDirectory directory = new CtlEaDirectory(current::get, () -> CTL, Map.of());
        EaEndpoint first = directory.find(PKI.ea.hashedId8(), NOW).orElseThrow();
        assertThat(directory.find(PKI.ea.hashedId8(), NOW).orElseThrow()).isSameAs(first);

        current.set(trust(PKI.ea.hashedId8()));

        assertThatThrownBy(() -> directory.find(PKI.ea.hashedId8(), NOW)).isInstanceOf(PkiException.class);
    }

    @Test
    void anExpiredEa_isRefusedEvenFromTheCache() {
        CtlEaDirectory directory = new CtlEaDirectory(() -> trust(), () -> CTL, Map.of());
        assertThat(directory.find(PKI.ea.hashedId8(), NOW)).as("found, and so cached, while valid").isPresent();
        assertThatThrownBy(() -> directory.find(PKI.ea.hashedId8(), PKI.ea.validity().end()))
                .isInstanceOfSatisfying(PkiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CERTIFICATE_EXPIRED));
    }
}
