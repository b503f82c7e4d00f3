package eu.vpki.faults;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class AuditTokensTest {
    @Test
    void read_takesPlainAndIncarnationOrigins_fromTheReplicasFilesOnly(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("ea-audit-ea-0.2026-11-24.0.log"),
                """
                        2026-11-24T14:01:02.003Z ec-issued ec=00112233aabbccdd station=S-1 operator=op-1 kind=initial validUntil=2027-11-24T14:01:02Z replicas=3 command=7@ea-0
                        """);
        Files.writeString(dir.resolve("ea-audit-ea-0.log"),
                """
                        2026-11-24T14:01:02.004Z request-refused code=deniedrequest
                        2026-11-24T14:01:03.005Z ec-issued ec=0011223344556677 station=S-3 operator=op-1 kind=re-enrolment validUntil=2027-11-24T14:01:03Z replicas=2 command=12@ea-0~mhx2k0a1
                        """);
        Files.writeString(dir.resolve("ea-audit-ea-1.log"),
                """
                        2026-11-24T14:01:04.005Z ec-issued ec=8899aabbccddeeff station=S-4 operator=op-1 kind=initial validUntil=2027-11-24T14:01:04Z replicas=3 command=3@ea-1~mhx2k0b7
                        """);

        var tokens = AuditTokens.read("ea-0", dir);

        assertThat(tokens).containsExactlyInAnyOrder(
                new RunRecord.IssuedToken("7@ea-0", "00112233AABBCCDD", "S-1", "ea-0"),
                new RunRecord.IssuedToken("12@ea-0~mhx2k0a1", "0011223344556677", "S-3", "ea-0"));
    }
}
