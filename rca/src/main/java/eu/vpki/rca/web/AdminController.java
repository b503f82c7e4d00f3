package eu.vpki.rca.web;

import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.rca.core.Authority;
import eu.vpki.rca.core.AuthorityCertification;
import eu.vpki.rca.core.AuthorityRequest;
import eu.vpki.rca.core.Revocation;
import eu.vpki.rca.core.RootCaService;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;

/** The Root CA's admin API (bearer token, see {@link AdminApi}): certify, list and revoke EAs and AAs. */
@RestController
@RequestMapping("/admin/authorities")
public class AdminController {
    private final AuthorityCertification certification;
    private final Revocation revocation;
    private final RootCaService service;

    public AdminController(AuthorityCertification certification, Revocation revocation, RootCaService service) {
        this.certification = certification;
        this.revocation = revocation;
        this.service = service;
    }

    /** An issued EA/AA certificate as the admin API shows it. */
    public record AuthorityView(String type, String name, String hashedId8, String certificate, String itsAccessPoint,
                                String aaAccessPoint, String accessPoint, Instant validFrom, Instant validUntil,
                                Instant issuedAt, boolean revoked, Instant revokedAt) {
        static AuthorityView of(Authority a) {
            return new AuthorityView(a.type().name(), a.certificate().name().orElse(null), a.hashedId8().toHex(),
                    Base64.getEncoder().encodeToString(a.certificate().encoded()), a.itsAccessPoint(), a.aaAccessPoint(),
                    a.accessPoint(), a.certificate().validity().start(), a.certificate().validity().end(), a.issuedAt(),
                    a.revoked(), a.revokedAt());
        }
    }

    public record RevokeRequest(String reason) {
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @ResponseStatus(HttpStatus.CREATED)
    public AuthorityView certify(@RequestBody AuthorityRequest request) {
        return AuthorityView.of(certification.certify(request));
    }

    /** Body: the COER {@code CaCertificateRequestMessage}; type, access points (and optionally name, validity) as query parameters. */
    @PostMapping(path = "/ca-certificate-request")
    @ResponseStatus(HttpStatus.CREATED)
    public AuthorityView certifyCaRequest(@RequestBody byte[] body, @RequestParam(required = false) String type,
                                          @RequestParam(required = false) String name,
                                          @RequestParam(required = false) String itsAccessPoint,
                                          @RequestParam(required = false) String aaAccessPoint,
                                          @RequestParam(required = false) String accessPoint,
                                          @RequestParam(required = false) Integer validityDays) {
        return AuthorityView.of(certification.certify(body, new AuthorityRequest(type, name, null, null, null, null,
                itsAccessPoint, aaAccessPoint, accessPoint, validityDays)));
    }

    @GetMapping
    public List<AuthorityView> list() {
        return service.state().authorities().stream().sorted(Comparator.comparing(Authority::issuedAt))
                .map(AuthorityView::of).toList();
    }

    @PostMapping("/{hashedId8}/revoke")
    public AuthorityView revoke(@PathVariable String hashedId8, @RequestBody(required = false) RevokeRequest request) {
        HashedId8 id;
        try {
            id = HashedId8.fromHex(hashedId8);
        } catch (PkiException e) {
            throw new PkiException(e.code(), "hashedId8: '" + hashedId8 + "' is not 16 hex digits", e);
        }
        return AuthorityView.of(revocation.revoke(id, request == null ? null : request.reason()));
    }
}
