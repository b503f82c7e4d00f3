package eu.vpki.rca.web;

import eu.vpki.common.distribution.DistributionPaths;
import eu.vpki.rca.core.RcaState;
import eu.vpki.rca.core.RootCaService;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.time.Clock;
import java.time.Instant;

/**
 * Public, read-only: the current lists and the root certificate, for DCs that start empty and for
 * operators. Everything here is signed by the root (or is the root), so it needs no authentication.
 */
@RestController
@RequestMapping("/rca")
public class TrustListController {
    private final RootCaService service;
    private final Clock clock;

    public TrustListController(RootCaService service, Clock clock) {
        this.service = service;
        this.clock = clock;
    }

    @GetMapping("/ctl")
    public ResponseEntity<byte[]> ctl() {
        RcaState s = service.state();
        return answer(s.ctl().full(), DistributionPaths.CTL_CONTENT_TYPE, s.ctl().nextUpdate());
    }

    @GetMapping("/ctl/delta")
    public ResponseEntity<byte[]> deltaCtl() {
        RcaState s = service.state();
        return answer(s.ctl().delta(), DistributionPaths.CTL_CONTENT_TYPE, s.ctl().nextUpdate());
    }

    @GetMapping("/crl")
    public ResponseEntity<byte[]> crl() {
        RcaState s = service.state();
        return answer(s.crl().encoded(), DistributionPaths.CRL_CONTENT_TYPE, s.crl().nextUpdate());
    }

    @GetMapping("/certificate")
    public ResponseEntity<byte[]> certificate() {
        return answer(service.root().certificate().encoded(), DistributionPaths.CERTIFICATE_CONTENT_TYPE,
                service.root().certificate().validity().end());
    }

    private ResponseEntity<byte[]> answer(byte[] body, String contentType, Instant until) {
        long maxAge = Math.max(0, Duration.between(clock.instant(), until).getSeconds());
        return ResponseEntity.ok().contentType(MediaType.parseMediaType(contentType))
                .eTag(DistributionPaths.etag(body)).cacheControl(CacheControl.maxAge(Duration.ofSeconds(maxAge)).cachePublic())
                .body(body);
    }
}
