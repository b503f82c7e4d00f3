package eu.vpki.ea.core;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.junit.FuzzTest;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.EtsiCodes;
import eu.vpki.common.etsi.ts102941.AuthorizationValidationMessages;
import eu.vpki.common.etsi.ts102941.EnrolmentMessages;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.FixedRequests;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.fleet.EcRecord;
import eu.vpki.common.fleet.FleetCommands;
import eu.vpki.common.testing.FuzzContract;
import eu.vpki.common.testing.FuzzCorpus;
import eu.vpki.common.testing.RedisFixtureExtension;
import eu.vpki.station.SimulatedStation;
import io.micrometer.core.instrument.Counter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.function.BiPredicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzz targets for the EA's two entry points, {@link EnrolmentService#enrol} and
 * {@link AuthorizationValidationService#validate}, on the plain-Java core with a one-member replica
 * and a real Redis, in which the station of {@link FixedRequests} is registered and holds the EC
 * {@link TestPki#fixedEc()}. The property is {@link FuzzContract}'s; and since the services answer
 * an unexpected exception as a refusal with {@link ErrorCode#INTERNAL_ERROR}, such a refusal
 * ({@code vpki.ea.refusals{code=INTERNAL_ERROR}}) fails the target too. Long run: docs/security.md
 * ("Fuzzing").
 */
@Tag("fuzz") // a JVM of its own (the root pom's execution fuzz-targets)
class EaEntryFuzzTest {
    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private static final TestPki PKI = TestPki.fixed();
    private static final DataEncryption ENCRYPTION = new DataEncryption(new SecureRandom());
    private EaCoreFixture ea;
    /** The replica's own Redis: the only destination Jazzer's SSRF detector lets it reach. */
    private BiPredicate<String, Integer> ownRedis;

    @BeforeEach
    void start() {
        int redisPort = REDIS.fixture().port();
        String redisHost = REDIS.fixture().host();
        ownRedis = (host, port) -> port == redisPort && (host.equals(redisHost) || host.equals("localhost") || host.equals("127.0.0.1"));
        ea = new EaCoreFixture(REDIS.fixture(), PKI);
        ea.register(EaCoreFixture.registration("op-fuzz", new SimulatedStation(FixedRequests.STATION_ID, FixedRequests.canonicalKey())));
        ea.replica.submit(FleetCommands.enrolled(new EcRecord(TestPki.fixedEc(), FixedRequests.STATION_ID, EcRecord.Status.ACTIVE, 1),
                Optional.empty())).join();
    }

    @AfterEach
    void stop() {
        ea.close();
    }

    /** An enrolment request body as posted to the EA. */
    @FuzzTest(maxDuration = "")
    void enrolmentBody(byte[] body) {
        check(() -> ea.enrolment.enrol(body));
    }

    /** The plaintext of an enrolment request, encrypted here for the EA so that the fuzzer reaches what lies behind decryption. */
    @FuzzTest(maxDuration = "")
    void enrolmentPlaintext(byte[] plaintext) {
        byte[] body = ENCRYPTION.encryptFor(PKI.ea.asEncryptionRecipient(), plaintext).encoded();
        check(() -> ea.enrolment.enrol(body));
    }

    /** An authorization validation request body as an AA posts it. */
    @FuzzTest(maxDuration = "")
    void validationBody(byte[] body) {
        check(() -> ea.validation.validate(body));
    }

    /** The plaintext of a validation request, encrypted here for the EA. */
    @FuzzTest(maxDuration = "")
    void validationPlaintext(byte[] plaintext) {
        byte[] body = ENCRYPTION.encryptFor(PKI.ea.asEncryptionRecipient(), plaintext).encoded();
        check(() -> ea.validation.validate(body));
    }

    private void check(Runnable entry) {
        // the replica opens connections to its configured Redis whenever its pool needs one (on the request path
        // and in its background tick); without this, Jazzer reports each as a server-side request forgery (two
        // findings of the 2026-11-24 21:22 run, docs/security.md "Fuzzing"); any other destination still is one.
        // Set on every input, never reset here: Jazzer installs its own policy when fuzzing starts and restores
        // it when fuzzing ends (a reset from @AfterEach fails), and the tick connects between inputs too.
        BugDetectors.allowNetworkConnections(ownRedis);
        FuzzContract.check(entry);
        Counter internal = ea.registry.find("vpki.ea.refusals").tag("code", ErrorCode.INTERNAL_ERROR.name()).counter();
        if (internal != null && internal.count() > 0) {
            throw new AssertionError("the EA answered an internal error");
        }
    }

    /**
     * Writes real requests (made with the fixed PKI) as seeds:
     * {@code mvn -pl ea -am test -Dtest=EaEntryFuzzTest#writeSeeds -Dvpki.fuzz.write-seeds=true -Dsurefire.failIfNoSpecifiedTests=false}.
     */
    @Test
    @EnabledIfSystemProperty(named = "vpki.fuzz.write-seeds", matches = "true")
    void writeSeeds() throws IOException {
        FuzzCorpus corpus = FuzzCorpus.of(EaEntryFuzzTest.class);
        OutgoingRequest enrolment = FixedRequests.enrolment();
        corpus.write("enrolmentBody", "initial", enrolment.body());
        corpus.write("enrolmentPlaintext", "initial",
                DecryptedRequest.decrypt(enrolment.body(), ea.identity.decryptionIdentity(), ENCRYPTION).plaintext());
        OutgoingRequest validation = FixedRequests.validation();
        corpus.write("validationBody", "from-aa", validation.body());
        corpus.write("validationPlaintext", "from-aa",
                DecryptedRequest.decrypt(validation.body(), ea.identity.decryptionIdentity(), ENCRYPTION).plaintext());
        // the seeds are answered, not refused: otherwise the fuzzer would start in front of the checks it should pass
        assertThat(AuthorizationValidationMessages.readResponse(ea.validation.validate(validation.body()), validation, PKI.ea, ENCRYPTION)
                .responseCode()).isEqualTo(EtsiCodes.Validation.OK);
        // (after the validation: the enrolment supersedes the EC it validates)
        assertThat(EnrolmentMessages.readResponse(ea.enrolment.enrol(enrolment.body()), enrolment, PKI.ea, ENCRYPTION).responseCode())
                .isEqualTo(EtsiCodes.Enrolment.OK);
    }
}
