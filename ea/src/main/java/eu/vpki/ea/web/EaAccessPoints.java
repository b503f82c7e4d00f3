package eu.vpki.ea.web;

import eu.vpki.ea.core.AuthorizationValidationService;
import eu.vpki.ea.core.EnrolmentService;
import eu.vpki.shell.etsi.AccessPoint;
import eu.vpki.shell.etsi.AccessPointWorkers;
import eu.vpki.shell.keys.AuthorityKeySource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * TS 102 941 access points of the EA (Annex D conventions), served by the service shell's access point server
 * ({@link AccessPoint}): POST the raw COER request with {@code Content-Type: application/x-its-request};
 * the answer is HTTP 200 with {@code application/x-its-response} (also for refusals, which are encrypted
 * ETSI responses). A body over {@code vpki.ea.max-request-bytes} never gets here: the server refuses it (413)
 * before it is read.
 * <ul>
 *   <li>{@value #ENROLMENT}: the EA's {@code itsAccessPoint} (enrolment and re-enrolment). It waits for its
 *       replicated command (and, in SYNC, for the other replicas), so it runs on the server's worker threads.</li>
 *   <li>{@value #VALIDATION}: the EA's {@code aaAccessPoint} (authorization validation, AAs only). It runs on the
 *       event loop that read the request when the EC and station records are kept in the replica's memory (a station
 *       asking for a batch of ATs), and on a worker thread when they must be read from its Redis, so that a slow
 *       Redis never holds up the event loop (docs/design-access-point-server.md).</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
public class EaAccessPoints {
    public static final String ENROLMENT = "/ea/enrolment";
    public static final String VALIDATION = "/ea/authorization-validation";

    @Bean
    AccessPoint enrolmentAccessPoint(EnrolmentService enrolment) {
        return AccessPoint.blocking("ea-enrolment", ENROLMENT, "an EnrolmentRequest", enrolment::enrol);
    }

    @Bean
    AccessPoint validationAccessPoint(AuthorizationValidationService validation, AccessPointWorkers workers, AuthorityKeySource keys) {
        // keys in a token (PKCS#11): the decryption in begin() and the signature in answer() run on a worker, not on the event loop
        return AccessPoint.asynchronous("ea-authorization-validation", VALIDATION, "an AuthorizationValidationRequest",
                keys.mayBlock()
                        ? body -> CompletableFuture.completedFuture(validation.begin(body).answer())
                        : body -> answer(validation.begin(body), workers),
                keys.mayBlock(), workers);
    }

    /** On the event loop when the validation's records are kept in memory; otherwise on a worker thread, which reads Redis. */
    public static CompletableFuture<byte[]> answer(AuthorizationValidationService.Validation validation, Executor workers) {
        return validation.readsStore()
                ? CompletableFuture.supplyAsync(validation::answer, workers)
                : CompletableFuture.completedFuture(validation.answer());
    }
}
