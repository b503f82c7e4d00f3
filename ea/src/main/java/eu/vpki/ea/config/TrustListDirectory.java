package eu.vpki.ea.config;

import eu.vpki.common.distribution.TrustListClient;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.CtlEntry;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.ea.core.AuthorizationAuthorityDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The AAs of the RCA's current CTL as fetched and verified by {@link TrustListClient} from the DCs
 * ({@code vpki.dc.urls}): an AA is accepted if the full CTL lists it, it chains to the RCA (the
 * client's trust store keeps only those) and the CRL does not revoke it. Refreshed in the background
 * every {@code vpki.dc.check-interval} when due; until the first successful fetch every validation
 * is refused (INVALIDAA), and a failed refresh keeps the lists held.
 */
final class TrustListDirectory implements AuthorizationAuthorityDirectory, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(TrustListDirectory.class);

    private final TrustListClient client;
    private final Clock clock;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "vpki-ea-trust-lists");
        t.setDaemon(true);
        return t;
    });

    TrustListDirectory(TrustListClient client, Clock clock, Duration interval) {
        this.client = client;
        this.clock = clock;
        refresh();
        scheduler.scheduleWithFixedDelay(this::refresh, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public Optional<EtsiCertificate> find(HashedId8 id) {
        return client.snapshot().flatMap(s -> s.ctl().authorizationAuthorities().stream()
                .map(CtlEntry.Aa::certificate)
                .filter(aa -> aa.hashedId8().equals(id))
                .filter(aa -> s.trustStore().authority(id).isPresent())
                .filter(aa -> !s.trustStore().isRevoked(id))
                .findFirst());
    }

    private void refresh() {
        try {
            client.refreshIfDue(clock.instant());
        } catch (PkiException e) {
            log.error("trust lists of RCA {} not refreshed: {}", client.rca().hashedId8(), e.getMessage());
        } catch (RuntimeException e) {
            log.error("trust list refresh failed", e);
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
