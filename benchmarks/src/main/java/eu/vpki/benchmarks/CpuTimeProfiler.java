package eu.vpki.benchmarks;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Reports throughput per CPU-second of the benchmark JVM next to JMH's wall-clock throughput, for
 * a shared, noisy machine: when other processes take CPU, ops/s falls but ops per CPU-second
 * (the cost of an operation) stays put. Per iteration:
 * <ul>
 *   <li>{@code cpu.ops}: operations / process CPU seconds (all threads, JIT and GC included; after
 *       warm-up JIT is negligible, GC is a real cost of the operation);</li>
 *   <li>{@code cpu.cores}: process CPU time / wall time: about 1.0 (or 2.0 with two threads) when
 *       the benchmark had its cores to itself, less when it was starved;</li>
 *   <li>{@code loadavg}: the 1-minute system load average at the end of the iteration.</li>
 * </ul>
 * Use with {@code -prof eu.vpki.benchmarks.CpuTimeProfiler}.
 */
public class CpuTimeProfiler implements InternalProfiler {
    private final com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory
            .getOperatingSystemMXBean();
    private long cpuStart;
    private long wallStart;

    @Override
    public String getDescription() {
        return "throughput per process CPU-second, cores used, system load";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        cpuStart = os.getProcessCpuTime();
        wallStart = System.nanoTime();
    }

    @Override
    public List<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                    IterationResult result) {
        long cpu = os.getProcessCpuTime() - cpuStart;
        long wall = System.nanoTime() - wallStart;
        long ops = result.getMetadata().getMeasuredOps();
        return List.of(
                new ScalarResult("cpu.ops", cpu <= 0 ? Double.NaN : ops / (cpu / 1e9), "ops/cpu-s", AggregationPolicy.AVG),
                new ScalarResult("cpu.cores", (double) cpu / wall, "cores", AggregationPolicy.AVG),
                new ScalarResult("loadavg", os.getSystemLoadAverage(), "load", AggregationPolicy.AVG));
    }
}
