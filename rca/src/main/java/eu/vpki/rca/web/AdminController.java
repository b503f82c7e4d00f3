package eu.vpki.rca.web;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.rca.core.Authority;
import eu.vpki.rca.core.AuthorityCertification;
import eu.vpki.rca.core.AuthorityRequest;
import eu.vpki.rca.core.Revocation;
import eu.vpki.rca.core.RootCaService;
import eu.vpki.shell.openapi.ProblemResponses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
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

/**
 * The Root CA's admin API (bearer token, see {@link AdminApi}): certify, list and revoke EAs and AAs.
 * Its OpenAPI description is generated from this class ({@code /openapi.yaml}, published as
 * {@code docs/openapi/rca-admin.yaml}).
 */
@RestController
@RequestMapping("/admin/authorities")
@Tag(name = "authorities", description = "EAs and AAs certified by this Root CA")
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
    @Operation(summary = "Certify an EA or AA from its public keys and access points")
    @ProblemResponses({
            ErrorCode.INVALID_ARGUMENT, ErrorCode.INVALID_KEY, ErrorCode.WRONG_CURVE, ErrorCode.UNSUPPORTED_ALGORITHM,
            ErrorCode.VALIDITY_NOT_ALLOWED, ErrorCode.KEY_STORE_FAILURE})
    public AuthorityView certify(@RequestBody AuthorityRequest request) {
        return AuthorityView.of(certification.certify(request));
    }

    /** Body: the COER {@code CaCertificateRequestMessage}; type, access points (and optionally name, validity) as query parameters. */
    @PostMapping(path = "/ca-certificate-request")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Certify an EA or AA from its self-signed CaCertificateRequestMessage (COER, TS 102 941)")
    @ProblemResponses({ErrorCode.MALFORMED_ENCODING, ErrorCode.NON_CANONICAL_ENCODING, ErrorCode.UNEXPECTED_CONTENT,
            ErrorCode.INVALID_SIGNATURE,
            ErrorCode.INVALID_ARGUMENT, ErrorCode.INVALID_KEY, ErrorCode.WRONG_CURVE, ErrorCode.UNSUPPORTED_ALGORITHM,
            ErrorCode.VALIDITY_NOT_ALLOWED, ErrorCode.KEY_STORE_FAILURE})
    public AuthorityView certifyCaRequest(@io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(mediaType = MediaType.APPLICATION_OCTET_STREAM_VALUE, schema = @Schema(type = "string", format = "binary"))) @RequestBody byte[] body,
                                          @RequestParam(required = false) String type,
                                          @RequestParam(required = false) String name,
                                          @RequestParam(required = false) String itsAccessPoint,
                                          @RequestParam(required = false) String aaAccessPoint,
                                          @RequestParam(required = false) String accessPoint,
                                          @RequestParam(required = false) Integer validityDays) {
        return AuthorityView.of(certification.certify(body, new AuthorityRequest(type, name, null, null, null, null,
                itsAccessPoint, aaAccessPoint, accessPoint, validityDays)));
    }

    @GetMapping
    @Operation(summary = "Every EA and AA this root certified, oldest first")
    public List<AuthorityView> list() {
        return service.state().authorities().stream().sorted(Comparator.comparing(Authority::issuedAt))
                .map(AuthorityView::of).toList();
    }

    @PostMapping("/{hashedId8}/revoke")
    @Operation(summary = "Revoke an EA or AA: it leaves the CTL and enters the CRL, both re-issued at once")
    @ProblemResponses({ErrorCode.INVALID_ARGUMENT, ErrorCode.NOT_FOUND, ErrorCode.KEY_STORE_FAILURE})
    public AuthorityView revoke(@Parameter(description = "HashedId8 of the authority's certificate, 16 hex digits") @PathVariable String hashedId8,
                                @RequestBody(required = false) RevokeRequest request) {
        HashedId8 id;
        try {
            id = HashedId8.fromHex(hashedId8);
        } catch (PkiException e) {
            throw new PkiException(e.code(), "hashedId8: '" + hashedId8 + "' is not 16 hex digits", e);
        }
        return AuthorityView.of(revocation.revoke(id, request == null ? null : request.reason()));
    }
}
