package eu.vpki.rca.config;

import eu.vpki.rca.core.DcPublisher;
import eu.vpki.rca.core.RootCaService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/** Re-issues CTL/CRL before their nextUpdate and retries publication to DCs that are behind. */
@Component
@EnableScheduling
class RenewalScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(RenewalScheduler.class);
    private final RootCaService service;
    private final DcPublisher publisher;

    RenewalScheduler(RootCaService service, DcPublisher publisher) {
        this.service = service;
        this.publisher = publisher;
    }

    @Scheduled(fixedDelayString = "${vpki.rca.renewal-check-interval:PT1M}", initialDelayString = "${vpki.rca.renewal-check-interval:PT1M}")
    void run() {
        try {
            service.renewIfDue();
            publisher.pushPending();
        } catch (RuntimeException e) {
            LOG.error("trust-list renewal failed (will retry): {}", e.toString(), e);
        }
    }
}
