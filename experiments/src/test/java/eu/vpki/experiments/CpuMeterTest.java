package eu.vpki.experiments;

import eu.vpki.station.load.PhaseResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CpuMeterTest {
    private static PhaseResult phase(long succeeded) {
        return new PhaseResult("p", PhaseResult.AUTHORIZATION, "closed", null, succeeded, succeeded, Map.of(), Instant.EPOCH,
                Duration.ofSeconds(1), new Histogram(3), List.of());
    }

    @Test
    void perOperation_dividesEachProcessesCpuBySuccesses_skippingProcessesNotInBoth() {
        Map<String, Long> before = Map.of("aa-0", 1_000_000_000L, "ea-0", 0L, "ea-0 redis", 5_000_000L, "gone", 7L);
        Map<String, Long> after = Map.of("aa-0", 1_200_000_000L, "ea-0", 100_000_000L, "ea-0 redis", 15_000_000L, "new", 9L);
        Map<String, Double> ms = CpuMeter.perOperation(before, after, phase(100));
        assertThat(ms).containsOnlyKeys("aa-0", "ea-0", "ea-0 redis");
        assertThat(ms.get("aa-0")).isCloseTo(2.0, within(1e-9));
        assertThat(ms.get("ea-0")).isCloseTo(1.0, within(1e-9));
        assertThat(ms.get("ea-0 redis")).isCloseTo(0.1, within(1e-9));
        assertThat(CpuMeter.perOperation(before, after, phase(0))).isEmpty();
    }

    @Test
    void byKind_addsReplicasUp_andRowsEndWithTheTotal() {
        Map<String, Double> kinds = CpuMeter.byKind(Map.of("ea-0", 1.0, "ea-1", 0.5, "ea-1 redis", 0.25, "operator-0", 0.125, "aa-0", 2.0,
                "rca", 0.0625));
        assertThat(kinds).containsEntry("EA JVMs", 1.5).containsEntry("EA redis-servers", 0.25).containsEntry("Operator JVMs", 0.125)
                .containsEntry("Operator redis-servers", 0.0).containsEntry("AA JVMs", 2.0).containsEntry("RCA and DC", 0.0625);
        List<String> row = CpuMeter.row("AT 20/s", phase(10), Map.of("aa-0", 2.0, "ea-0", 1.0, "ea-1", 1.5, "ea-1 redis", 0.25,
                "load client", 0.5));
        assertThat(row).hasSize(CpuMeter.header().size()).startsWith("AT 20/s", "10");
        assertThat(row.subList(CpuMeter.KINDS.size() + 2, row.size() - 1)).as("total, busiest EA JVM, its redis-server, AA JVM")
                .containsExactly("5.250", "1.500", "0.250", "2.000");
        assertThat(CpuMeter.kind("load client")).isEqualTo("load client");
    }
}
