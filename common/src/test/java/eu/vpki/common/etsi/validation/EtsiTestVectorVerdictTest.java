package eu.vpki.common.etsi.validation;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The ETSI ITS test-suite certificates in {@code src/test/resources/test-vectors/etsi-its-certs}
 * (source and licence in the README there), each with the
 * verdict a correct verifier gives at 2019-06-01 (inside the suite's validity), trusting the two
 * roots and every CA certificate of the set. Reasons per group:
 * <ul>
 *   <li>A1/A2: validity ends before / starts after the check time.</li>
 *   <li>B3_AA, B3_AT, TS_B1_AT (brainpoolP384r1 subjects under P-256 issuers): the signature does
 *       not verify; BouncyCastle's own ITS verifier agrees.</li>
 *   <li>B33_AT: names its issuer with the label sha256AndDigest but the SHA-384 HashedId8 of B3_AA:
 *       it names no certificate under a consistent reading.</li>
 *   <li>*_N_*, *_BO_*: uncompressed public keys; their signatures verify over their encoding, but we
 *       accept only canonical certificates (compressed keys, x-only r), as real clients do.</li>
 *   <li>C/D/E_AT: CAM SSP 01ffff sets the two reserved bits the AA's range 01fffc/ff0003 fixes to 0.</li>
 *   <li>*_BI_02, EC_ENR_RCV_02_BI_03: SECURED_CERTIFICATE_REQUEST SSP outside the issuer's range
 *       (version byte 02 or 00, or c0 missing).</li>
 *   <li>C3_AA, CA_AA, C1/CA1/CA2/CA3_AT: region not inside the issuer's.</li>
 * </ul>
 */
class EtsiTestVectorVerdictTest {
    static final String DIR = "/test-vectors/etsi-its-certs";
    static final Instant AT = Instant.parse("2019-06-01T00:00:00Z");

    static final Map<String, String> VERDICTS = new LinkedHashMap<>();

    static {
        String[] table = {
                "CERT_IUT_A1_AT", "CERTIFICATE_EXPIRED",
                "CERT_IUT_A2_AT", "CERTIFICATE_NOT_YET_VALID",
                "CERT_IUT_A3_AT", "VALID",
                "CERT_IUT_A4_AT", "VALID",
                "CERT_IUT_A_AA", "VALID",
                "CERT_IUT_A_AA_A8", "VALID",
                "CERT_IUT_A_AT", "VALID",
                "CERT_IUT_A_AT_A8", "VALID",
                "CERT_IUT_A_B33_AT", "UNKNOWN_ISSUER",
                "CERT_IUT_A_B3_AA", "INVALID_SIGNATURE",
                "CERT_IUT_A_B3_AT", "INVALID_SIGNATURE",
                "CERT_IUT_A_B3_N_AT", "NON_CANONICAL_ENCODING",
                "CERT_IUT_A_B_AA", "VALID",
                "CERT_IUT_A_B_AT", "VALID",
                "CERT_IUT_A_B_N_AT", "NON_CANONICAL_ENCODING",
                "CERT_IUT_A_N_AA", "NON_CANONICAL_ENCODING",
                "CERT_IUT_A_N_AT", "NON_CANONICAL_ENCODING",
                "CERT_IUT_A_RCA", "VALID",
                "CERT_IUT_B_AT", "VALID",
                "CERT_IUT_C1_AT", "REGION_EXCEEDS_ISSUER",
                "CERT_IUT_C3_AA", "REGION_EXCEEDS_ISSUER",
                "CERT_IUT_CA1_AT", "REGION_EXCEEDS_ISSUER",
                "CERT_IUT_CA2_AT", "REGION_EXCEEDS_ISSUER",
                "CERT_IUT_CA3_AT", "REGION_EXCEEDS_ISSUER",
                "CERT_IUT_CAM_BO_02_AT", "NON_CANONICAL_ENCODING",
                "CERT_IUT_CAM_BO_03_AT", "NON_CANONICAL_ENCODING",
                "CERT_IUT_CA_AA", "REGION_EXCEEDS_ISSUER",
                "CERT_IUT_CC_AA", "VALID",
                "CERT_IUT_C_AT", "PERMISSIONS_EXCEED_ISSUER",
                "CERT_IUT_C_AT_8", "PERMISSIONS_EXCEED_ISSUER",
                "CERT_IUT_C_RCA", "VALID",
                "CERT_IUT_DENM_BO_01_AT", "NON_CANONICAL_ENCODING",
                "CERT_IUT_DENM_BO_02_AT", "NON_CANONICAL_ENCODING",
                "CERT_IUT_D_AT", "PERMISSIONS_EXCEED_ISSUER",
                "CERT_IUT_D_AT_8", "PERMISSIONS_EXCEED_ISSUER",
                "CERT_IUT_E_AT", "PERMISSIONS_EXCEED_ISSUER",
                "CERT_IUT_E_AT_8", "PERMISSIONS_EXCEED_ISSUER",
                "CERT_TS_AA_AUTHVAL_RCV_02_BI_01", "VALID",
                "CERT_TS_AA_AUTHVAL_RCV_02_BI_02", "PERMISSIONS_EXCEED_ISSUER",
                "CERT_TS_AA_AUTHVAL_RCV_02_BI_03", "VALID",
                "CERT_TS_A_AA", "VALID",
                "CERT_TS_A_AA_B", "VALID",
                "CERT_TS_A_AT", "VALID",
                "CERT_TS_A_EA", "VALID",
                "CERT_TS_A_EA_AA_AUTHVAL_RCV_02_BI_01", "VALID",
                "CERT_TS_A_EA_AA_AUTHVAL_RCV_02_BI_02", "PERMISSIONS_EXCEED_ISSUER",
                "CERT_TS_A_EA_AA_AUTHVAL_RCV_02_BI_03", "VALID",
                "CERT_TS_A_EC", "VALID",
                "CERT_TS_B1_AT", "INVALID_SIGNATURE",
                "CERT_TS_B_AT", "VALID",
                "CERT_TS_CAM_BO_02_AT", "NON_CANONICAL_ENCODING",
                "CERT_TS_CAM_BO_03_AT", "NON_CANONICAL_ENCODING",
                "CERT_TS_DENM_BO_01_AT", "NON_CANONICAL_ENCODING",
                "CERT_TS_DENM_BO_02_AT", "NON_CANONICAL_ENCODING",
                "CERT_TS_EC_ENR_RCV_02_BI_01", "VALID",
                "CERT_TS_EC_ENR_RCV_02_BI_02", "PERMISSIONS_EXCEED_ISSUER",
                "CERT_TS_EC_ENR_RCV_02_BI_03", "PERMISSIONS_EXCEED_ISSUER",
                "CERT_TS_F_AT", "VALID",
        };
        for (int i = 0; i < table.length; i += 2) {
            VERDICTS.put(table[i], table[i + 1]);
        }
    }

    static Path dir() {
        java.net.URL url = EtsiTestVectorVerdictTest.class.getResource(DIR);
        assertThat(url).as("ETSI test vectors on the test class path (" + DIR + ")").isNotNull();
        try {
            return Path.of(url.toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static EtsiCertificate load(String name) {
        try {
            return EtsiCertificate.decode(Files.readAllBytes(dir().resolve(name + ".oer")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static TrustStore everyRootAndCa() {
        List<EtsiCertificate> roots = new ArrayList<>();
        List<EtsiCertificate> cas = new ArrayList<>();
        for (String n : VERDICTS.keySet()) {
            EtsiCertificate c = load(n);
            if (c.selfSigned()) {
                roots.add(c);
            } else if (c.isCa()) {
                cas.add(c);
            }
        }
        return TrustStore.of(roots, cas, List.of());
    }

    static Stream<Arguments> verdicts() {
        return VERDICTS.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @Test
    void everyCertificateOfTheSuiteHasAVerdict() throws IOException {
        try (Stream<Path> files = Files.list(dir())) {
            List<String> names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".oer"))
                    .map(n -> n.substring(0, n.length() - 4)).toList();
            assertThat(names).hasSize(58).containsExactlyInAnyOrderElementsOf(VERDICTS.keySet());
        }
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("verdicts")
    void certificate_getsTheVerdictACorrectVerifierGives(String name, String verdict) {
        TrustStore trust = everyRootAndCa();
        EtsiCertificate cert = load(name);
        if (verdict.equals("VALID")) {
            List<EtsiCertificate> chain = trust.validate(cert, AT);
            assertThat(chain.get(chain.size() - 1).selfSigned()).isTrue();
            assertThat(chain.get(chain.size() - 1).hashedId8().toHex()).isIn("C6F1125E19B175EE", "E5F6DB2F26D073AE");
        } else {
            assertThatThrownBy(() -> trust.validate(cert, AT)).isInstanceOfSatisfying(PkiException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.valueOf(verdict)));
        }
    }

    @Test
    void rootHashedId8_isTheOneTheSuiteDocuments() {
        assertThat(load("CERT_IUT_A_RCA").hashedId8().toHex()).isEqualTo("C6F1125E19B175EE");
    }

    @Test
    void uncompressedCertificates_areRefusedThoughTheirSignaturesVerify() {
        EtsiCertificate n = load("CERT_IUT_A_N_AT");
        assertThat(n.canonical()).isFalse();
        assertThat(n.signatureVerifies(load("CERT_IUT_A_AA"))).isTrue();
    }

    @Test
    void expiredCertificate_isValidInsideItsPeriod() {
        TrustStore trust = everyRootAndCa();
        assertThat(trust.validate(load("CERT_IUT_A1_AT"), Instant.parse("2018-06-01T00:00:00Z"))).hasSize(3);
        assertThat(trust.validate(load("CERT_IUT_A2_AT"), Instant.parse("2020-06-01T00:00:00Z"))).hasSize(3);
    }
}
