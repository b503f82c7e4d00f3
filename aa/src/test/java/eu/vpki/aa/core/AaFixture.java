package eu.vpki.aa.core;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages;
import eu.vpki.common.etsi.ts102941.AuthorizationMessages.Protection;
import eu.vpki.common.etsi.ts103097.DataEncryption;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.TestPki;
import eu.vpki.common.testing.ManualClock;
import eu.vpki.shell.audit.AuditProperties;
import eu.vpki.shell.audit.LogbackAuditLog;
import eu.vpki.shell.replay.CaffeineReplayCache;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.StationMessages;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.util.unit.DataSize;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static eu.vpki.common.etsi.ts103097.TestPki.RANDOM;

/**
 * One AA core wired to a {@link FakeEa} with two access points, a fixed clock, a simple registry, the
 * service shell's replay cache and its real audit log (logback, in a temporary directory).
 */
public final class AaFixture implements AutoCloseable {
    static final URI EA_1 = URI.create("http://ea-1.test/aa/validation");
    static final URI EA_2 = URI.create("http://ea-2.test/aa/validation");

    public final TestPki pki;
    public final ManualClock clock = new ManualClock(TestPki.NOW);
    public final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final DataEncryption encryption = new DataEncryption(RANDOM);
    public final FakeEa ea;
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final AtomicInteger STATIONS = new AtomicInteger();
    /** The requests of the stations the tests drive (the one simulated station of the station module). */
    public static final StationMessages MESSAGES = new StationMessages(RANDOM, new DataEncryption(RANDOM));
    final CaffeineReplayCache replayCache;
    final Path auditDir;
    final LogbackAuditLog audit;
    public final AuthorizationService service;
    private final AaIdentity identity;
    private final EaDirectory directory;
    private final EaValidation validation;
    private final AaMetrics metrics;
    private final RequestWindow window;

    AaFixture(TestPki pki, RequestWindow window) {
        this.pki = pki;
        this.ea = new FakeEa(pki, clock, encryption);
        try {
            this.auditDir = Files.createTempDirectory("aa-audit");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        this.replayCache = new CaffeineReplayCache("aa-replay", window.replayRetention(), 10_000,
                CaffeineReplayCache.WhenFull.EVICT, clock, registry);
        this.audit = new LogbackAuditLog("aa", "fixture-" + INSTANCES.incrementAndGet(),
                new AuditProperties(auditDir, null, null, DataSize.ofMegabytes(1), 0, AuditProperties.Format.TEXT));
        this.metrics = new AaMetrics(registry);
        this.identity = AaIdentity.of(pki.aa, pki.aaSigner(), pki.aaEncKey);
        this.directory = (id, now) -> id.equals(pki.ea.hashedId8())
                ? Optional.of(EaEndpoint.of(pki.ea, List.of(EA_1, EA_2)))
                : Optional.empty();
        this.validation = new EaValidation(identity, ea, encryption, metrics);
        this.window = window;
        this.service = withAudit(audit);
    }

    /** The same AA core with another audit log (one that fails, say). */
    AuthorizationService withAudit(eu.vpki.common.audit.AuditLog auditLog) {
        return new AuthorizationService(identity, directory, validation, AtPolicy.DEFAULT, window, replayCache, auditLog, metrics, clock,
                encryption);
    }

    public AaFixture(TestPki pki) {
        this(pki, RequestWindow.DEFAULT);
    }

    /** A station holding an EC of {@code pki}'s EA on {@code curve}, issued directly (the EA of the tests never heard of it). */
    public static SimulatedStation withEc(TestPki pki, EtsiCurve curve) {
        EtsiKeyPair key = EtsiKeyPair.generate(curve, RANDOM);
        return withEc(key, pki.issueEc(key));
    }

    /** A station holding {@code ec} for {@code key}. */
    static SimulatedStation withEc(EtsiKeyPair key, EtsiCertificate ec) {
        SimulatedStation station = SimulatedStation.generate("AA-TEST-" + STATIONS.incrementAndGet(), key.curve(), RANDOM);
        station.enrolled(key, ec);
        return station;
    }

    /** A station with an EC that the EA of this AA knows. */
    public SimulatedStation enrolledStation(EtsiCurve curve) {
        SimulatedStation s = withEc(pki, curve);
        ea.enrolmentCredentials.put(s.enrolmentCredential().hashedId8(), s.enrolmentCredential());
        return s;
    }

    /** An AT request of {@code station} to this AA, naming its EA. */
    public StationMessages.Request atRequest(SimulatedStation station, Protection protection, List<PsidSsp> permissions, Instant now) {
        return MESSAGES.authorization(station, pki.ea, pki.aa, permissions, protection, now);
    }

    /** The station's reading of this AA's answer to {@code request}. */
    public AuthorizationMessages.AtResult read(byte[] response, StationMessages.Request request) {
        return MESSAGES.readAuthorization(response, request, pki.aa);
    }

    /** Where {@code needle} first occurs in {@code hay}, or -1: a trace in what a side wrote or saw. */
    public static int indexOf(byte[] hay, byte[] needle) {
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    public double tickets(String outcome) {
        return registry.find("vpki.aa.tickets").tag("outcome", outcome).counters().stream().mapToDouble(Counter::count).sum();
    }

    double tickets(String outcome, int code) {
        Counter c = registry.find("vpki.aa.tickets").tag("outcome", outcome).tag("code", Integer.toString(code)).counter();
        return c == null ? 0 : c.count();
    }

    double eaFailures() {
        return registry.find("vpki.aa.ea.failures").counters().stream().mapToDouble(Counter::count).sum();
    }

    /** Every line of every audit file. */
    public List<String> auditLines() {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(auditDir)) {
            for (Path f : files.sorted().toList()) {
                lines.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return lines;
    }

    /** Every byte the AA wrote to disk. */
    byte[] auditBytes() {
        return String.join("\n", auditLines()).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        audit.close();
        try (Stream<Path> files = Files.list(auditDir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(auditDir);
    }
}
