package eu.vpki.operator.web;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.operator.core.FleetRegistration;
import eu.vpki.operator.core.Inputs;
import eu.vpki.operator.core.StationAdministration;
import eu.vpki.shell.openapi.ProblemResponses;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.security.Principal;

/**
 * The Operator REST API (its OpenAPI description is generated from this class: {@code /openapi.yaml},
 * published as {@code docs/openapi/operator.yaml}). Every call authenticates with
 * {@code Authorization: Bearer <token>} ({@link OperatorApiConfiguration}, checked before the body is read; the
 * operator id is the request's principal) and acts on the caller's own fleet only. Writes answer the
 * version token in {@value #VERSION_HEADER} and in the body; reads presenting it in
 * {@value #VERSION_HEADER} reflect that write.
 */
@RestController
@RequestMapping("/operator/v1")
@Tag(name = "stations", description = "The caller's fleet of ITS stations (canonical identities)")
public class StationController {
    public static final String VERSION_HEADER = "X-Vpki-Version";
    private static final String READ_VERSION = "a version token of an earlier write: the answer reflects at least that write "
            + "(or 503 VERSION_NOT_YET_APPLIED after vpki.operator.read-wait)";
    private static final String WRITTEN = "the version token of this write (seq@origin); present it in " + VERSION_HEADER
            + " to read your own write from any replica";

    private final FleetRegistration registration;
    private final StationAdministration administration;

    public StationController(FleetRegistration registration, StationAdministration administration) {
        this.registration = registration;
        this.administration = administration;
    }

    @PostMapping("/stations")
    @Operation(summary = "Register stations in bulk, all or nothing (one replicated command)")
    @ApiResponse(responseCode = "201", description = "All stations registered", headers = @Header(name = VERSION_HEADER, description = WRITTEN, schema = @Schema(type = "string", example = "42@op-1")))
    @ProblemResponses({ErrorCode.INVALID_ARGUMENT, ErrorCode.INVALID_KEY, ErrorCode.WRONG_CURVE, ErrorCode.UNSUPPORTED_ALGORITHM,
            ErrorCode.UNKNOWN_PSID, ErrorCode.VALIDITY_NOT_ALLOWED, ErrorCode.DUPLICATE_ID, ErrorCode.OVERSIZE_INPUT,
            ErrorCode.REPLICATION_UNAVAILABLE,
            ErrorCode.STORAGE_FULL})
    public ResponseEntity<Inputs.WriteResult> register(Principal operator,
                                                       @RequestBody Inputs.Batch batch) {
        return written(HttpStatus.CREATED, registration.register(operator.getName(), batch));
    }

    @GetMapping("/stations")
    @Operation(summary = "List the canonical ids of the caller's fleet, one page per call: follow nextCursor until it is absent")
    @ProblemResponses({ErrorCode.INVALID_ARGUMENT, ErrorCode.VERSION_NOT_YET_APPLIED})
    public Inputs.FleetView list(Principal operator,
                                 @Parameter(description = READ_VERSION) @RequestHeader(value = VERSION_HEADER, required = false) String version,
                                 @Parameter(description = "the nextCursor of the previous page; absent or 0 for the first page") @RequestParam(value = "cursor", required = false) String cursor,
                                 @Parameter(description = "about how many ids the page holds (a hint, 1 to 10000, default 1000); a fleet of up to 128 ids comes whole") @RequestParam(value = "limit", required = false) Integer limit) {
        return administration.list(operator.getName(), version, cursor, limit);
    }

    @GetMapping("/stations/{id}")
    @Operation(summary = "Read one station of the caller's fleet, with its latest EC")
    @ProblemResponses({ErrorCode.INVALID_ARGUMENT, ErrorCode.NOT_FOUND, ErrorCode.VERSION_NOT_YET_APPLIED})
    public Inputs.StationView read(Principal operator,
                                   @Parameter(description = READ_VERSION) @RequestHeader(value = VERSION_HEADER, required = false) String version,
                                   @PathVariable("id") String id) {
        return administration.read(operator.getName(), id, version);
    }

    @PutMapping("/stations/{id}/permissions")
    @Operation(summary = "Replace the station's permitted application permissions")
    @ApiResponse(responseCode = "200", description = "Permissions replaced", headers = @Header(name = VERSION_HEADER, description = WRITTEN, schema = @Schema(type = "string", example = "42@op-1")))
    @ProblemResponses({ErrorCode.INVALID_ARGUMENT, ErrorCode.UNKNOWN_PSID, ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE_TRANSITION,
            ErrorCode.REPLICATION_UNAVAILABLE,
            ErrorCode.STORAGE_FULL})
    public ResponseEntity<Inputs.WriteResult> permissions(Principal operator,
                                                          @PathVariable("id") String id, @RequestBody Inputs.PermissionChange change) {
        return written(HttpStatus.OK, administration.changePermissions(operator.getName(), id, change));
    }

    @PostMapping("/stations/{id}/suspend")
    @Operation(summary = "Suspend an active station: its ECs stop validating and it cannot enrol")
    @ApiResponse(responseCode = "200", description = "Station suspended", headers = @Header(name = VERSION_HEADER, description = WRITTEN, schema = @Schema(type = "string", example = "42@op-1")))
    @ProblemResponses({ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE_TRANSITION, ErrorCode.REPLICATION_UNAVAILABLE,
            ErrorCode.STORAGE_FULL})
    public ResponseEntity<Inputs.WriteResult> suspend(Principal operator,
                                                      @PathVariable("id") String id) {
        return written(HttpStatus.OK, administration.changeStatus(operator.getName(), id, StationStatus.SUSPENDED));
    }

    @PostMapping("/stations/{id}/reactivate")
    @Operation(summary = "Reactivate a suspended station")
    @ApiResponse(responseCode = "200", description = "Station active again", headers = @Header(name = VERSION_HEADER, description = WRITTEN, schema = @Schema(type = "string", example = "42@op-1")))
    @ProblemResponses({ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE_TRANSITION, ErrorCode.REPLICATION_UNAVAILABLE,
            ErrorCode.STORAGE_FULL})
    public ResponseEntity<Inputs.WriteResult> reactivate(Principal operator,
                                                         @PathVariable("id") String id) {
        return written(HttpStatus.OK, administration.changeStatus(operator.getName(), id, StationStatus.ACTIVE));
    }

    @PostMapping("/stations/{id}/revoke")
    @Operation(summary = "Revoke a station for good")
    @ApiResponse(responseCode = "200", description = "Station revoked", headers = @Header(name = VERSION_HEADER, description = WRITTEN, schema = @Schema(type = "string", example = "42@op-1")))
    @ProblemResponses({ErrorCode.NOT_FOUND, ErrorCode.INVALID_STATE_TRANSITION, ErrorCode.REPLICATION_UNAVAILABLE,
            ErrorCode.STORAGE_FULL})
    public ResponseEntity<Inputs.WriteResult> revoke(Principal operator,
                                                     @PathVariable("id") String id) {
        return written(HttpStatus.OK, administration.changeStatus(operator.getName(), id, StationStatus.REVOKED));
    }

    private static ResponseEntity<Inputs.WriteResult> written(HttpStatus status, Inputs.WriteResult result) {
        return ResponseEntity.status(status).header(VERSION_HEADER, result.version()).body(result);
    }
}
