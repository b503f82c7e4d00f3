package eu.vpki.dc.web;

import eu.vpki.common.distribution.DistributionPaths;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.dc.core.DistributionCentre;
import eu.vpki.dc.core.ListKind;
import eu.vpki.dc.core.ServedList;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * The DC's HTTP interface: TS 102 941 Annex D downloads for vehicles and services, and the ingest
 * endpoint where the RCA publishes (authenticated by the lists' own RCA signature).
 */
@RestController
public class DcController {
    private final DistributionCentre dc;
    private final Clock clock;

    public DcController(DistributionCentre dc, Clock clock) {
        this.dc = dc;
        this.clock = clock;
    }

    @GetMapping("/getctl/{rca}")
    public ResponseEntity<byte[]> ctl(@PathVariable String rca,
                                      @RequestHeader(value = "If-None-Match", required = false) String ifNoneMatch) {
        return serve(dc.list(rcaId(rca), ListKind.CTL), ifNoneMatch);
    }

    @GetMapping("/getctl/{rca}/delta")
    public ResponseEntity<byte[]> deltaCtl(@PathVariable String rca,
                                           @RequestHeader(value = "If-None-Match", required = false) String ifNoneMatch) {
        return serve(dc.list(rcaId(rca), ListKind.DELTA_CTL), ifNoneMatch);
    }

    @GetMapping("/getcrl/{rca}")
    public ResponseEntity<byte[]> crl(@PathVariable String rca,
                                      @RequestHeader(value = "If-None-Match", required = false) String ifNoneMatch) {
        return serve(dc.list(rcaId(rca), ListKind.CRL), ifNoneMatch);
    }

    @GetMapping("/getcert/{rca}")
    public ResponseEntity<byte[]> certificate(@PathVariable String rca,
                                              @RequestHeader(value = "If-None-Match", required = false) String ifNoneMatch) {
        return serve(dc.certificate(rcaId(rca)), ifNoneMatch);
    }

    /** Ingest: the RCA (or anyone relaying its lists) publishes a signed CTL, delta CTL or CRL. */
    @RequestMapping(path = "/publish/{rca}/{kind}", method = {RequestMethod.PUT, RequestMethod.POST})
    public ResponseEntity<Map<String, String>> publish(@PathVariable String rca, @PathVariable String kind, @RequestBody byte[] body) {
        DistributionCentre.Outcome outcome = dc.accept(ListKind.fromPathName(kind), body, rcaId(rca));
        return ResponseEntity.status(outcome == DistributionCentre.Outcome.ACCEPTED ? HttpStatus.CREATED : HttpStatus.OK)
                .body(Map.of("outcome", outcome.name()));
    }

    private static HashedId8 rcaId(String hex) {
        try {
            return HashedId8.fromHex(hex);
        } catch (PkiException e) {
            throw new PkiException(ErrorCode.NOT_FOUND, "'" + hex + "' is not an RCA HashedId8 (16 hex digits)", e);
        }
    }

    private ResponseEntity<byte[]> serve(ServedList list, String ifNoneMatch) {
        byte[] body = list.body();
        String etag = DistributionPaths.etag(body);
        long maxAge = Math.max(0, Duration.between(clock.instant(), list.cacheUntil()).getSeconds());
        CacheControl cache = CacheControl.maxAge(Duration.ofSeconds(maxAge)).cachePublic();
        if (ifNoneMatch != null && matches(ifNoneMatch, etag)) {
            return ResponseEntity.status(HttpStatus.NOT_MODIFIED).eTag(etag).cacheControl(cache).build();
        }
        return ResponseEntity.ok().contentType(MediaType.parseMediaType(list.contentType())).eTag(etag).cacheControl(cache).body(body);
    }

    private static boolean matches(String ifNoneMatch, String etag) {
        return Arrays.stream(ifNoneMatch.split(",")).map(String::trim)
                .anyMatch(t -> t.equals("*") || t.equals(etag) || t.equals("W/" + etag));
    }
}
