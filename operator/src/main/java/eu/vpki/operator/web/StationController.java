package eu.vpki.operator.web;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.operator.core.FleetRegistration;
import eu.vpki.operator.core.Inputs;
import eu.vpki.operator.core.OperatorCredentials;
import eu.vpki.operator.core.StationAdministration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The Operator REST API (see {@code /openapi.yaml}). Every call authenticates with
 * {@code Authorization: Bearer <token>} and acts on the caller's own fleet only. Writes answer the
 * version token in {@value #VERSION_HEADER} and in the body; reads presenting it in
 * {@value #VERSION_HEADER} reflect that write.
 */
@RestController
@RequestMapping("/operator/v1")
public class StationController {
    public static final String VERSION_HEADER = "X-Vpki-Version";

    private final OperatorCredentials credentials;
    private final FleetRegistration registration;
    private final StationAdministration administration;

    public StationController(OperatorCredentials credentials, FleetRegistration registration, StationAdministration administration) {
        this.credentials = credentials;
        this.registration = registration;
        this.administration = administration;
    }

    @PostMapping("/stations")
    public ResponseEntity<Inputs.WriteResult> register(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String auth,
                                                       @RequestBody Inputs.Batch batch) {
        return written(HttpStatus.CREATED, registration.register(operator(auth), batch));
    }

    @GetMapping("/stations")
    public Inputs.FleetView list(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String auth,
                                 @RequestHeader(value = VERSION_HEADER, required = false) String version) {
        return administration.list(operator(auth), version);
    }

    @GetMapping("/stations/{id}")
    public Inputs.StationView read(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String auth,
                                   @RequestHeader(value = VERSION_HEADER, required = false) String version,
                                   @PathVariable("id") String id) {
        return administration.read(operator(auth), id, version);
    }

    @PutMapping("/stations/{id}/permissions")
    public ResponseEntity<Inputs.WriteResult> permissions(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String auth,
                                                          @PathVariable("id") String id, @RequestBody Inputs.PermissionChange change) {
        return written(HttpStatus.OK, administration.changePermissions(operator(auth), id, change));
    }

    @PostMapping("/stations/{id}/suspend")
    public ResponseEntity<Inputs.WriteResult> suspend(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String auth,
                                                      @PathVariable("id") String id) {
        return written(HttpStatus.OK, administration.changeStatus(operator(auth), id, StationStatus.SUSPENDED));
    }

    @PostMapping("/stations/{id}/reactivate")
    public ResponseEntity<Inputs.WriteResult> reactivate(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String auth,
                                                         @PathVariable("id") String id) {
        return written(HttpStatus.OK, administration.changeStatus(operator(auth), id, StationStatus.ACTIVE));
    }

    @PostMapping("/stations/{id}/revoke")
    public ResponseEntity<Inputs.WriteResult> revoke(@RequestHeader(value = HttpHeaders.AUTHORIZATION, required = false) String auth,
                                                     @PathVariable("id") String id) {
        return written(HttpStatus.OK, administration.changeStatus(operator(auth), id, StationStatus.REVOKED));
    }

    private String operator(String authorization) {
        String token = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authorization.substring(7).strip() : null;
        return credentials.authenticate(token)
                .orElseThrow(() -> new PkiException(ErrorCode.UNAUTHENTICATED, "a valid operator bearer token is required"));
    }

    private static ResponseEntity<Inputs.WriteResult> written(HttpStatus status, Inputs.WriteResult result) {
        return ResponseEntity.status(status).header(VERSION_HEADER, result.version()).body(result);
    }
}
