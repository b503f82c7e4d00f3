package eu.vpki.operator.web;

import eu.vpki.common.fleet.StationStatus;
import eu.vpki.operator.core.FleetRegistration;
import eu.vpki.operator.core.Inputs;
import eu.vpki.operator.core.StationAdministration;
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

import java.security.Principal;

/**
 * The Operator REST API (see {@code /openapi.yaml}). Every call authenticates with
 * {@code Authorization: Bearer <token>} ({@link OperatorApi}, checked before the body is read; the
 * operator id is the request's principal) and acts on the caller's own fleet only. Writes answer the
 * version token in {@value #VERSION_HEADER} and in the body; reads presenting it in
 * {@value #VERSION_HEADER} reflect that write.
 */
@RestController
@RequestMapping("/operator/v1")
public class StationController {
    public static final String VERSION_HEADER = "X-Vpki-Version";

    private final FleetRegistration registration;
    private final StationAdministration administration;

    public StationController(FleetRegistration registration, StationAdministration administration) {
        this.registration = registration;
        this.administration = administration;
    }

    @PostMapping("/stations")
    public ResponseEntity<Inputs.WriteResult> register(Principal operator,
                                                       @RequestBody Inputs.Batch batch) {
        return written(HttpStatus.CREATED, registration.register(operator.getName(), batch));
    }

    @GetMapping("/stations")
    public Inputs.FleetView list(Principal operator,
                                 @RequestHeader(value = VERSION_HEADER, required = false) String version) {
        return administration.list(operator.getName(), version);
    }

    @GetMapping("/stations/{id}")
    public Inputs.StationView read(Principal operator,
                                   @RequestHeader(value = VERSION_HEADER, required = false) String version,
                                   @PathVariable("id") String id) {
        return administration.read(operator.getName(), id, version);
    }

    @PutMapping("/stations/{id}/permissions")
    public ResponseEntity<Inputs.WriteResult> permissions(Principal operator,
                                                          @PathVariable("id") String id, @RequestBody Inputs.PermissionChange change) {
        return written(HttpStatus.OK, administration.changePermissions(operator.getName(), id, change));
    }

    @PostMapping("/stations/{id}/suspend")
    public ResponseEntity<Inputs.WriteResult> suspend(Principal operator,
                                                      @PathVariable("id") String id) {
        return written(HttpStatus.OK, administration.changeStatus(operator.getName(), id, StationStatus.SUSPENDED));
    }

    @PostMapping("/stations/{id}/reactivate")
    public ResponseEntity<Inputs.WriteResult> reactivate(Principal operator,
                                                         @PathVariable("id") String id) {
        return written(HttpStatus.OK, administration.changeStatus(operator.getName(), id, StationStatus.ACTIVE));
    }

    @PostMapping("/stations/{id}/revoke")
    public ResponseEntity<Inputs.WriteResult> revoke(Principal operator,
                                                     @PathVariable("id") String id) {
        return written(HttpStatus.OK, administration.changeStatus(operator.getName(), id, StationStatus.REVOKED));
    }

    private static ResponseEntity<Inputs.WriteResult> written(HttpStatus status, Inputs.WriteResult result) {
        return ResponseEntity.status(status).header(VERSION_HEADER, result.version()).body(result);
    }
}
