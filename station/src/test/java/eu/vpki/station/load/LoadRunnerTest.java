package eu.vpki.station.load;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class LoadRunnerTest {
    private final LoadRunner runner = new LoadRunner();

    @Test
    void closedLoop_runsExactlyTheRequestedOperationsAndCountsFailuresByCode() {
        PhaseResult r = runner.run("enrol", "test", new LoadModel.Closed(4, 1000, Duration.ofMinutes(1)),
                i -> i % 10 == 0 ? Outcome.failure("enrolment:unknownits") : Outcome.OK, p -> {
                });
        assertThat(r.attempted()).isEqualTo(1000);
        assertThat(r.succeeded()).isEqualTo(900);
        assertThat(r.failuresByCode()).containsExactlyEntriesOf(java.util.Map.of("enrolment:unknownits", 100L));
        assertThat(r.latencyMicros().getTotalCount()).isEqualTo(900);
        assertThat(r.successRate()).isEqualTo(0.9);
    }

    @Test
    void paced_neverStartsFasterThanItsCap() {
        // 21 operations at most 100/s: the last may not start before 200 ms (a busy machine only makes it slower)
        long start = System.nanoTime();
        PhaseResult r = runner.run("paced", "test", new LoadModel.Paced(100, 4, 21, Duration.ofMinutes(1)), i -> Outcome.OK, p -> {
        });
        assertThat(r.attempted()).isEqualTo(21);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    }

    @Test
    void paced_eachWorkerRunsOneOperationAtATime() throws Exception {
        java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        runner.run("paced", "test", new LoadModel.Paced(10_000, 3, 60, Duration.ofMinutes(1)), i -> {
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            TimeUnit.MILLISECONDS.sleep(2);
            inFlight.decrementAndGet();
            return Outcome.OK;
        }, p -> {
        });
        assertThat(most.get()).isBetween(1, 3);
    }

    @Test
    void stop_endsAnUnboundedPhase_lettingOperationsInFlightFinish() {
        LoadRunner.Stop stop = new LoadRunner.Stop();
        PhaseResult r = runner.run("until-stopped", "test", new LoadModel.Paced(1_000, 2, Long.MAX_VALUE, Duration.ofDays(1)), i -> {
            if (i == 10) {
                stop.request();
            }
            return Outcome.OK;
        }, p -> {
        }, stop);
        assertThat(r.attempted()).isBetween(11L, 13L);
        assertThat(r.succeeded()).isEqualTo(r.attempted());
    }

    @Test
    void exceptionsBecomeClientFailures() {
        PhaseResult r = runner.run("x", "test", new LoadModel.Closed(2, 10, Duration.ofMinutes(1)), i -> {
            throw new java.io.IOException("connection refused");
        }, p -> {
        });
        assertThat(r.succeeded()).isZero();
        assertThat(r.failuresByCode()).containsEntry("client:IOException", 10L);
    }

    @Test
    void openLoop_countsQueueingInTheLatency() {
        // one worker, 20 ms of service time, offered 200/s: requests queue, and latency measured from the
        // intended start must grow far beyond the service time (no coordinated omission)
        PhaseResult r = runner.run("queue", "test", new LoadModel.Open(200, 40, Duration.ofMinutes(1), 1), i -> {
            TimeUnit.MILLISECONDS.sleep(20);
            return Outcome.OK;
        }, p -> {
        });
        assertThat(r.succeeded()).isEqualTo(40);
        assertThat(r.offeredRate()).isEqualTo(200.0);
        // the last request waited for the 39 before it: about 39 * 20 ms - 39 * 5 ms = 585 ms
        assertThat(r.maxLatencyMillis()).isGreaterThan(300);
        assertThat(r.latencyMillis(50)).isGreaterThan(100);
    }

    @Test
    void durationBound_stopsAPhaseThatWouldNeverFinish() {
        CountDownLatch never = new CountDownLatch(1);
        PhaseResult r = runner.run("bounded", "test", new LoadModel.Closed(2, Long.MAX_VALUE, Duration.ofMillis(300)), i -> {
            TimeUnit.MILLISECONDS.sleep(5);
            return Outcome.OK;
        }, p -> {
        });
        assertThat(never.getCount()).isEqualTo(1);
        assertThat(r.attempted()).isPositive().isLessThan(1000);
        assertThat(r.elapsed()).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void progressLine_reportsTheCounts() {
        java.util.concurrent.atomic.AtomicReference<LoadRunner.Progress> progress = new java.util.concurrent.atomic.AtomicReference<>();
        runner.run("fetch", "test", new LoadModel.Closed(1, 3, Duration.ofMinutes(1)), i -> Outcome.OK, progress::set);
        assertThat(progress.get().line()).startsWith("[fetch] 3/3 done, 3 ok, 0 failed");
    }

    @Test
    void timeline_accountsForEverySuccessSecondBySecond() {
        // 60 operations offered at 40/s: about a second and a half, so at least two intervals
        PhaseResult r = runner.run("paced", "test", new LoadModel.Open(40, 60, Duration.ofMinutes(1), 2), i -> Outcome.OK, p -> {
        });
        assertThat(r.timeline()).hasSizeGreaterThanOrEqualTo(2);
        assertThat(r.timeline().stream().mapToLong(PhaseResult.Interval::succeeded).sum()).isEqualTo(60);
        assertThat(r.latencyMicros().getTotalCount()).isEqualTo(60);
        assertThat(r.timeline().get(r.timeline().size() - 1).endSeconds()).isCloseTo(r.elapsed().toNanos() / 1e9,
                org.assertj.core.data.Offset.offset(0.01));
        assertThat(r.timeline().get(0).seconds()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(0.3));
        assertThat(r.operation()).isEqualTo("test");
    }
}
