package eu.vpki.aa.config;

import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.error.PkiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps the CTL and CRL current: fetches them once at start (a failure is logged, not fatal: the
 * DC may come up later, and until then every request is refused as naming an unknown EA), then
 * asks {@link TrustListClient#refreshIfDue} every {@code interval}, which fetches before the lists'
 * nextUpdate and after {@code vpki.dc.max-age}.
 */
final class TrustListRefresher implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(TrustListRefresher.class);

    private final TrustListClient client;
    private final Duration interval;
    private final Clock clock;
    private ScheduledExecutorService scheduler;

    TrustListRefresher(TrustListClient client, Duration interval, Clock clock) {
        this.client = client;
        this.interval = interval;
        this.clock = clock;
    }

    @Override
    public synchronized void start() {
        refresh();
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "aa-trust-lists");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleWithFixedDelay(this::refresh, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void refresh() {
        try {
            client.refreshIfDue(clock.instant());
        } catch (PkiException e) {
            log.warn("trust lists not refreshed (the held ones stay in use): {}", e.getMessage());
        } catch (RuntimeException e) {
            log.error("trust list refresh failed", e);
        }
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }
}
