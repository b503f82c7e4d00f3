package eu.vpki.common.fleet;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.TestPki;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecordDecodingTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final TestPki PKI = new TestPki(EtsiCurve.NIST_P256);

    private static String storedEc() {
        return HEX.formatHex(PKI.issueEc(EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM)).encoded());
    }

    @Test
    void certificate_isDecodedOnceAndThenServedDecoded() {
        RecordDecoding decoding = new RecordDecoding(8);
        String stored = storedEc();

        EtsiCertificate first = decoding.certificate(stored);
        EtsiCertificate again = decoding.certificate(stored);

        assertThat(first.encoded()).isEqualTo(HEX.parseHex(stored));
        assertThat(again).isSameAs(first);
        assertThat(decoding.cachedCertificates()).isEqualTo(1);
    }

    @Test
    void key_isKeyedByCurveAndEncoding() {
        RecordDecoding decoding = new RecordDecoding(8);
        EtsiPublicKey key = EtsiKeyPair.generate(EtsiCurve.BRAINPOOL_P256R1, TestPki.RANDOM).publicKey();
        String hex = HEX.formatHex(key.compressed());

        EtsiPublicKey decoded = decoding.key("BRAINPOOL_P256R1", hex);

        assertThat(decoded).isEqualTo(key);
        assertThat(decoding.key("BRAINPOOL_P256R1", hex)).isSameAs(decoded);
        // the same bytes are not a valid point on every curve, and never the same key: another entry
        assertThatThrownBy(() -> decoding.key("BRAINPOOL_P384R1", hex)).isInstanceOf(PkiException.class)
                .extracting(e -> ((PkiException) e).code()).isEqualTo(ErrorCode.INVALID_KEY);
        assertThat(decoding.cachedKeys()).isEqualTo(1);
    }

    @Test
    void leastRecentlyUsedEntriesGoFirst_atTheBound() {
        RecordDecoding decoding = new RecordDecoding(2);
        String a = storedEc();
        String b = storedEc();
        String c = storedEc();
        EtsiCertificate decodedA = decoding.certificate(a);
        EtsiCertificate decodedB = decoding.certificate(b);
        decoding.certificate(a); // a is now more recently used than b

        decoding.certificate(c); // evicts b

        assertThat(decoding.cachedCertificates()).isEqualTo(2);
        assertThat(decoding.certificate(a)).isSameAs(decodedA);
        assertThat(decoding.certificate(b)).isNotSameAs(decodedB).satisfies(
                again -> assertThat(again.encoded()).isEqualTo(decodedB.encoded()));
    }

    @Test
    void uncached_decodesEveryTime_andAFailedDecodingIsNotRemembered() {
        RecordDecoding none = RecordDecoding.uncached();
        String stored = storedEc();
        assertThat(none.certificate(stored)).isNotSameAs(none.certificate(stored));
        assertThat(none.cachedCertificates()).isZero();

        RecordDecoding decoding = new RecordDecoding(8);
        assertThatThrownBy(() -> decoding.certificate("00ff")).isInstanceOf(PkiException.class);
        assertThat(decoding.cachedCertificates()).isZero();
        assertThatThrownBy(() -> new RecordDecoding(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
