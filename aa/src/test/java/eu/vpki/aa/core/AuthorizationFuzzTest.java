package eu.vpki.aa.core;

import com.code_intelligence.jazzer.junit.FuzzTest;
import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.DecryptedRequest;
import eu.vpki.common.etsi.ts102941.FixedRequests;
import eu.vpki.common.etsi.ts102941.OutgoingRequest;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.testing.FuzzContract;
import eu.vpki.common.testing.FuzzCorpus;
import eu.vpki.common.testing.ManualClock;
import eu.vpki.common.audit.AuditLog;
import eu.vpki.shell.replay.CaffeineReplayCache;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.io.IOException;
import java.net.URI;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static eu.vpki.common.etsi.ts103097.TestPki.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzz targets for the AA's entry point, {@link AuthorizationService#authorize}, on the plain-Java
 * core with an in-process EA ({@link FakeEa}) and the fixed test PKI. The property is
 * {@link FuzzContract}'s, and more: the service catches unexpected exceptions itself and answers
 * them as an internal error, so an audit record with {@link ErrorCode#INTERNAL_ERROR} fails the
 * target too. Long run: docs/security.md ("Fuzzing").
 */
@Tag("fuzz") // a JVM of its own (the root pom's execution fuzz-targets)
class AuthorizationFuzzTest {
    private static final TestPki PKI = TestPki.fixed();
    private static final ManualClock CLOCK = new ManualClock(NOW);
    private static final DataEncryption ENCRYPTION = new DataEncryption(new SecureRandom());
    /** The reason of the last audit event ({@code reason=NAME}), or null. */
    private static final AtomicReference<String> LAST_REASON = new AtomicReference<>();
    private static final AaIdentity IDENTITY = AaIdentity.of(PKI.aa, PKI.aaSigner(), PKI.aaEncKey);
    private static final AuthorizationService SERVICE = service();

    private static AuthorizationService service() {
        FakeEa ea = new FakeEa(PKI, CLOCK, ENCRYPTION);
        ea.enrolmentCredentials.put(TestPki.fixedEc().hashedId8(), TestPki.fixedEc());
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CaffeineReplayCache replays = new CaffeineReplayCache("aa-fuzz", RequestWindow.DEFAULT.replayRetention(), 10_000,
                CaffeineReplayCache.WhenFull.EVICT, CLOCK, registry);
        AaMetrics metrics = new AaMetrics(registry);
        EaDirectory directory = (id, now) -> id.equals(PKI.ea.hashedId8())
                ? Optional.of(EaEndpoint.of(PKI.ea, List.of(URI.create("http://ea.fuzz.test/aa/validation"))))
                : Optional.empty();
        AuditLog audit = (type, keyValues) -> {
            for (int i = 0; i + 1 < keyValues.length; i += 2) {
                if (keyValues[i].equals("reason")) {
                    LAST_REASON.set(keyValues[i + 1]);
                }
            }
        };
        return new AuthorizationService(IDENTITY, directory, new EaValidation(IDENTITY, ea, ENCRYPTION, metrics), AtPolicy.DEFAULT,
                RequestWindow.DEFAULT, replays, audit, metrics, CLOCK, ENCRYPTION);
    }

    /** A request body as posted to the AA. */
    @FuzzTest(maxDuration = "")
    void authorizationBody(byte[] body) {
        authorize(body);
    }

    /** The plaintext of a request, encrypted here for the AA so that the fuzzer reaches the parser and the checks behind decryption. */
    @FuzzTest(maxDuration = "")
    void authorizationPlaintext(byte[] plaintext) {
        authorize(ENCRYPTION.encryptFor(PKI.aa.asEncryptionRecipient(), plaintext).encoded());
    }

    private static void authorize(byte[] body) {
        LAST_REASON.set(null);
        FuzzContract.check(() -> SERVICE.authorize(body).join());
        if (ErrorCode.INTERNAL_ERROR.name().equals(LAST_REASON.get())) {
            throw new AssertionError("the AA answered an internal error");
        }
    }

    /**
     * Writes real requests (made with the fixed PKI and its EC) as seeds:
     * {@code mvn -pl aa -am test -Dtest=AuthorizationFuzzTest#writeSeeds -Dvpki.fuzz.write-seeds=true -Dsurefire.failIfNoSpecifiedTests=false}.
     */
    @Test
    @EnabledIfSystemProperty(named = "vpki.fuzz.write-seeds", matches = "true")
    void writeSeeds() throws IOException {
        FuzzCorpus corpus = FuzzCorpus.of(AuthorizationFuzzTest.class);
        for (AuthorizationMessages.Protection protection : List.of(AuthorizationMessages.Protection.FULL,
                new AuthorizationMessages.Protection(false, true), new AuthorizationMessages.Protection(true, false))) {
            OutgoingRequest request = FixedRequests.authorization(protection);
            String name = (protection.proofOfPossession() ? "pop" : "no-pop")
                    + (protection.encryptEcSignature() ? "-encrypted-ec-signature" : "-clear-ec-signature");
            if (protection.equals(AuthorizationMessages.Protection.FULL)) {
                // answered with a ticket, not refused: the fuzzer starts from a request that passes every check
                assertThat(SERVICE.authorize(request.body()).join()).isInstanceOfSatisfying(AuthorizationOutcome.Answered.class,
                        answered -> assertThat(answered.responseCode()).isZero());
            }
            corpus.write("authorizationBody", name, request.body());
            corpus.write("authorizationPlaintext", name,
                    DecryptedRequest.decrypt(request.body(), IDENTITY.decryption(), ENCRYPTION).plaintext());
        }
    }
}
