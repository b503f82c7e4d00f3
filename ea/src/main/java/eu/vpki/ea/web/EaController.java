package eu.vpki.ea.web;

import eu.vpki.ea.core.AuthorizationValidationService;
import eu.vpki.ea.core.EnrolmentService;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * TS 102 941 endpoints of the EA (Annex D conventions): POST the raw COER request with
 * {@code Content-Type: application/x-its-request}; the answer is HTTP 200 with
 * {@code application/x-its-response} (also for refusals, which are encrypted ETSI responses). A body over
 * {@code vpki.ea.max-request-bytes} never gets here: the service shell refuses it (413) before it is buffered.
 * <ul>
 *   <li>{@value #ENROLMENT}: the EA's {@code itsAccessPoint} (enrolment and re-enrolment)</li>
 *   <li>{@value #VALIDATION}: the EA's {@code aaAccessPoint} (authorization validation, AAs only)</li>
 * </ul>
 */
@RestController
public class EaController {
    public static final String ENROLMENT = "/ea/enrolment";
    public static final String VALIDATION = "/ea/authorization-validation";
    public static final MediaType ITS_REQUEST = MediaType.parseMediaType("application/x-its-request");
    public static final MediaType ITS_RESPONSE = MediaType.parseMediaType("application/x-its-response");

    private final EnrolmentService enrolment;
    private final AuthorizationValidationService validation;

    public EaController(EnrolmentService enrolment, AuthorizationValidationService validation) {
        this.enrolment = enrolment;
        this.validation = validation;
    }

    @PostMapping(path = ENROLMENT, consumes = "application/x-its-request")
    public ResponseEntity<byte[]> enrol(@RequestBody byte[] body) {
        return ResponseEntity.ok().contentType(ITS_RESPONSE).body(enrolment.enrol(body));
    }

    @PostMapping(path = VALIDATION, consumes = "application/x-its-request")
    public ResponseEntity<byte[]> validate(@RequestBody byte[] body) {
        return ResponseEntity.ok().contentType(ITS_RESPONSE).body(validation.validate(body));
    }
}
