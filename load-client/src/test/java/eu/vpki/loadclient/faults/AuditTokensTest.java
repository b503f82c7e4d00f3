package eu.vpki.loadclient.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class AuditTokensTest {
    @Test
    void read_takesPlainAndIncarnationOrigins_skipsOtherLines(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("ea-0.log");
        Files.writeString(log, """
                2026-11-24 14:01:02.003 INFO eu.vpki.audit.ea issued EC 00112233aabbccdd to station S-1 of operator op-1 (initial, valid until 2027-11-24T14:01:02Z, 3 replicas, 7@ea-0)
                2026-11-24 14:01:02.004 INFO eu.vpki.ea.web refused enrolment of station S-2: NOT_SERVING
                2026-11-24 14:01:03.005 INFO eu.vpki.audit.ea issued EC 0011223344556677 to station S-3 of operator op-1 (re-enrolment, valid until 2027-11-24T14:01:03Z, 2 replicas, 12@ea-0~mhx2k0a1)
                """);

        var tokens = AuditTokens.read("ea-0", log);

        assertThat(tokens).containsExactly(
                new RunRecord.IssuedToken("7@ea-0", "00112233AABBCCDD", "S-1", "ea-0"),
                new RunRecord.IssuedToken("12@ea-0~mhx2k0a1", "0011223344556677", "S-3", "ea-0"));
    }
}
