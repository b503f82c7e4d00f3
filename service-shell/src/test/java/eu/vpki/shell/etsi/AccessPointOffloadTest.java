package eu.vpki.shell.etsi;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** Keys in a token (issue #36): an asynchronous access point's work starts on a worker instead of the calling event loop. */
class AccessPointOffloadTest {
    @org.junit.jupiter.api.RepeatedTest(200)
    void offloaded_exchangeRunsOnAWorker_otherwiseOnTheCallingThread() throws Exception {
        ExecutorService workers = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-worker"));
        try {
            AtomicReference<String> thread = new AtomicReference<>();
            AccessPoint.Exchange exchange = body -> {
                thread.set(Thread.currentThread().getName());
                return CompletableFuture.completedFuture(body);
            };
            byte[] answer = AccessPoint.asynchronous("t", "/t", "a test", exchange, true, workers).exchange()
                    .answer(new byte[]{1}).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(answer).containsExactly(1);
            assertThat(thread.get()).isEqualTo("test-worker");

            AccessPoint.asynchronous("t", "/t", "a test", exchange, false, workers).exchange()
                    .answer(new byte[]{2}).toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(thread.get()).isEqualTo(Thread.currentThread().getName());
        } finally {
            workers.shutdownNow();
        }
    }
}
