package eu.vpki.faults;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.common.etsi.ts103097.Psids;
import eu.vpki.common.fleet.Permissions;
import eu.vpki.common.fleet.StationStatus;
import eu.vpki.station.ObuProtocol;
import eu.vpki.station.OperatorClient;
import eu.vpki.station.PkiEndpoints;
import eu.vpki.station.SimulatedStation;
import eu.vpki.station.load.LoadModel;
import eu.vpki.station.load.LoadRunner;
import eu.vpki.station.load.Outcome;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The workload of a fault run, recording every operation in the {@link History}: an operator's back
 * office registering stations and changing them (permissions, suspend, reactivate, revoke) through
 * different Operator replicas, each acknowledged change read back at another Operator replica with
 * its read-your-writes token; vehicles enrolling and re-enrolling at different EA replicas; vehicles
 * asking the AA for ATs (so EA replicas validate against the replicated state), preferring recently
 * revoked stations. Half the registrations are batches of 2 to 4 new stations in one call (one
 * replicated command: all or none). A small share of operations race ({@link Settings#raceShare()}),
 * in three kinds drawn alike: a revocation and another change of the same station sent to two
 * Operator replicas at once; one new station id registered at two Operator replicas at once, each
 * with its own canonical key (two claimants of one id: at most one may be acknowledged); and the
 * initial enrolment of one registered station sent to two EA replicas at once.
 *
 * <p>Each station is used by one operation at a time (a lock per station), so the expected state of
 * a station after an acknowledged write is known exactly; once a write to it ended without a clear
 * answer (it may or may not have applied), or after a race, the station takes no further Operator
 * writes. The offered rate is capped ({@link Settings#rate()}); the workload runs until
 * {@link #close()}.
 */
public final class ConsistencyWorkload implements AutoCloseable {
    /** The AT permissions stations ask for and are registered with: CAM and DENM of the ETSI profile. */
    static final List<PsidSsp> AT_PERMISSIONS = List.of(
            PsidSsp.bitmap(Psids.CAM, (byte) 0x01, (byte) 0xff, (byte) 0xfc),
            PsidSsp.bitmap(Psids.DENM, (byte) 0x01, (byte) 0xff, (byte) 0xff, (byte) 0xff));
    /** Permission sets a change chooses from; all cover {@link #AT_PERMISSIONS}, so ATs stay possible. */
    static final List<List<PsidSsp>> PERMISSION_VARIANTS = List.of(
            AT_PERMISSIONS,
            plus(PsidSsp.bitmap(Psids.SPATEM, (byte) 0x01, (byte) 0xe0)),
            plus(PsidSsp.bitmap(Psids.MAPEM, (byte) 0x01, (byte) 0xc0)),
            plus(PsidSsp.bitmap(Psids.SPATEM, (byte) 0x01, (byte) 0xe0), PsidSsp.bitmap(Psids.MAPEM, (byte) 0x01, (byte) 0xc0)));
    private static final Duration MAX_EC_VALIDITY = Duration.ofDays(365);
    private static final HexFormat HEX = HexFormat.of();

    /** A process the workload sends requests to. */
    public record Endpoint(String name, URI url) {
    }

    /**
     * @param rate           operations started per second at most (all kinds together)
     * @param workers        threads (operations in flight at most)
     * @param raceShare      share of operations that are racing changes (0 for none)
     * @param requestTimeout client timeout of one request (above the services' replication timeouts)
     */
    public record Settings(double rate, int workers, double raceShare, Duration requestTimeout) {
        public Settings {
            if (rate <= 0 || workers < 1 || raceShare < 0 || raceShare > 0.5) {
                throw new IllegalArgumentException("rate > 0, workers >= 1, race share in [0, 0.5]");
            }
        }

        public static Settings defaults() {
            return new Settings(20, 32, 0.02, Duration.ofSeconds(15));
        }
    }

    /** One station and what the workload knows about it; fields other than {@code revokedAtMs} guarded by {@code lock}. */
    private static final class Slot {
        /** Replaced only after a race, by the claimant (registration race) or the copy (enrolment race) that got its answer. */
        volatile SimulatedStation station;
        final ReentrantLock lock = new ReentrantLock();
        boolean registered;
        /** An Operator write may have applied without an acknowledgement, or raced: no more Operator writes. */
        boolean retired;
        StationStatus status = StationStatus.ACTIVE;
        int permissions;
        String lastEa;
        volatile long revokedAtMs = -1;

        Slot(SimulatedStation station) {
            this.station = station;
        }
    }

    private final History history;
    private final ObuProtocol obu;
    private final PkiEndpoints.Ea ea;
    private final List<Endpoint> operatorEndpoints;
    private final List<OperatorClient> operators;
    private final List<Endpoint> eaReplicas;
    private final List<Endpoint> aas;
    private final Settings settings;
    private final SecureRandom random = new SecureRandom();
    private final String prefix;
    private final List<Slot> stations = new CopyOnWriteArrayList<>();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong races = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final LoadRunner.Stop stop = new LoadRunner.Stop();
    private Thread runner;
    private final ExecutorService racers;

    /**
     * @param http       for the Operator REST API
     * @param obu        the simulated stations' protocol (its requests are sent to {@code eaReplicas} and {@code aas})
     * @param operators  Operator replicas; {@code operatorToken} is the operator's bearer token there
     * @param eaReplicas EA replicas, for enrolments
     * @param aas        AA processes, for AT requests
     */
    public ConsistencyWorkload(History history, java.net.http.HttpClient http, ObuProtocol obu, List<Endpoint> operators,
                               String operatorToken, List<Endpoint> eaReplicas, List<Endpoint> aas, Settings settings) {
        if (operators.isEmpty() || eaReplicas.isEmpty() || aas.isEmpty()) {
            throw new IllegalArgumentException("needs at least one Operator, EA replica and AA");
        }
        this.history = history;
        this.obu = obu;
        this.ea = obu.endpoints().ea();
        this.operatorEndpoints = List.copyOf(operators);
        this.operators = operators.stream()
                .map(o -> new OperatorClient(http, o.url(), operatorToken, settings.requestTimeout())).toList();
        this.eaReplicas = List.copyOf(eaReplicas);
        this.aas = List.copyOf(aas);
        this.settings = settings;
        this.prefix = "F" + Long.toHexString(random.nextLong() & 0xffffffL) + "-";
        this.racers = Executors.newCachedThreadPool(daemon("faults-race"));
    }

    /**
     * Starts the workers; operations are recorded until {@link #close()}. The load comes from the one
     * load generator ({@link LoadRunner}, paced: at most {@link Settings#rate()} operations started per
     * second by {@link Settings#workers()} workers, each running its operation to the end).
     */
    public void start() {
        LoadModel.Paced model = new LoadModel.Paced(settings.rate(), settings.workers(), Long.MAX_VALUE, Duration.ofDays(365));
        runner = new Thread(() -> new LoadRunner().run("consistency", "mixed", model, i -> {
            operation();
            return Outcome.OK;
        }, p -> {
        }, stop), "faults-workload");
        runner.setDaemon(true);
        runner.start();
    }

    /** Stops starting operations and waits for those in flight (at most a request timeout and a bit). */
    @Override
    public void close() {
        stop.request();
        if (runner != null) {
            try {
                runner.join(Duration.ofSeconds(settings.requestTimeout().toSeconds() * 2 + 10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        racers.shutdownNow();
    }

    public int stations() {
        return stations.size();
    }

    /** One operation of the mix; an operation that failed in the client itself is recorded where it happened. */
    private void operation() throws InterruptedException {
        try {
            double r = ThreadLocalRandom.current().nextDouble();
            double race = settings.raceShare();
            if (r < race) {
                switch (ThreadLocalRandom.current().nextInt(3)) {
                    case 0 -> race();
                    case 1 -> registrationRace();
                    default -> enrolmentRace();
                }
            } else if (r < race + 0.08 || stations.size() < 10) {
                register(ThreadLocalRandom.current().nextBoolean() ? 1 : 2 + pick(3));
            } else if (r < race + 0.30) {
                change();
            } else if (r < race + 0.60) {
                enrol();
            } else {
                authorize();
            }
        } catch (RuntimeException e) {
            System.err.println("workload: " + e);
        }
    }

    // ---- Operator writes ----

    private void register() throws InterruptedException {
        register(1);
    }

    /**
     * Registers {@code size} new stations in one call (one replicated command: all or none); each is
     * recorded as its own REGISTER operation with the call's times, outcome and token, and, for a batch,
     * the batch's id and size ({@code batch}, {@code batchSize}).
     */
    private void register(int size) throws InterruptedException {
        List<Slot> slots = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            Slot slot = new Slot(SimulatedStation.generate(prefix + created.incrementAndGet(), EtsiCurve.NIST_P256, random));
            slot.lock.lock();
            slots.add(slot);
        }
        try {
            stations.addAll(slots);
            int o = pick(operators.size());
            List<SimulatedStation> batch = slots.stream().map(x -> x.station).toList();
            long invoked = history.now();
            Call call = operatorCall(() -> operators.get(o).register(batch, AT_PERMISSIONS, MAX_EC_VALIDITY));
            long completed = history.now();
            String batchId = size > 1 ? "b" + batches.incrementAndGet() : null;
            for (Slot slot : slots) {
                Map<String, String> detail = registration(slot.station);
                if (batchId != null) {
                    detail.put("batch", batchId);
                    detail.put("batchSize", Integer.toString(size));
                }
                Op op = record(Op.Type.REGISTER, slot.station, operatorEndpoints.get(o).name(), invoked, completed, call, detail);
                if (op.acknowledged()) {
                    slot.registered = true;
                } else if (op.mayHaveApplied()) {
                    slot.retired = true;
                }
            }
        } finally {
            slots.forEach(x -> x.lock.unlock());
        }
    }

    /** What a registration writes: ACTIVE, the AT permissions, the station's canonical key ({@code key}, compressed, hex). */
    private static Map<String, String> registration(SimulatedStation station) {
        Map<String, String> detail = new LinkedHashMap<>();
        detail.put("status", StationStatus.ACTIVE.name());
        detail.put("permissions", Permissions.encode(AT_PERMISSIONS));
        detail.put("key", HEX.formatHex(station.canonicalKey().publicKey().compressed()));
        return detail;
    }

    /**
     * One new station id registered at two Operator replicas at the same moment, each with its own
     * canonical key: two claimants of one id. The station takes no Operator writes afterwards; it keeps
     * the claimant that was acknowledged (the first one if both were: one of them is then lost).
     */
    private void registrationRace() throws InterruptedException {
        if (operators.size() < 2) {
            register(1);
            return;
        }
        String id = prefix + created.incrementAndGet();
        SimulatedStation one = SimulatedStation.generate(id, EtsiCurve.NIST_P256, random);
        SimulatedStation two = SimulatedStation.generate(id, EtsiCurve.NIST_P256, random);
        Slot slot = new Slot(one);
        slot.lock.lock();
        try {
            stations.add(slot);
            String race = "r" + races.incrementAndGet();
            int a = pick(operators.size());
            int b = (a + 1 + pick(operators.size() - 1)) % operators.size();
            CompletableFuture<Op> first = CompletableFuture.supplyAsync(() -> uninterrupted(() -> claim(one, a, race)), racers);
            CompletableFuture<Op> second = CompletableFuture.supplyAsync(() -> uninterrupted(() -> claim(two, b, race)), racers);
            Op x = first.join();
            Op y = second.join();
            slot.retired = true;
            slot.registered = x.acknowledged() || y.acknowledged();
            if (!x.acknowledged() && y.acknowledged()) {
                slot.station = two;
            }
        } finally {
            slot.lock.unlock();
        }
    }

    private Op claim(SimulatedStation station, int o, String race) throws InterruptedException {
        long invoked = history.now();
        Call call = operatorCall(() -> operators.get(o).register(List.of(station), AT_PERMISSIONS, MAX_EC_VALIDITY));
        Map<String, String> detail = registration(station);
        detail.put("race", race);
        return record(Op.Type.REGISTER, station, operatorEndpoints.get(o).name(), invoked, history.now(), call, detail);
    }

    /** One change of a station's permissions or status, then a read-your-writes read at another Operator replica. */
    private void change() throws InterruptedException {
        Slot slot = lockOne(s -> s.registered && !s.retired && s.status != StationStatus.REVOKED);
        if (slot == null) {
            register();
            return;
        }
        try {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            Op.Type type;
            if (slot.status == StationStatus.ACTIVE) {
                double x = r.nextDouble();
                type = x < 0.4 ? Op.Type.PERMISSIONS : x < 0.75 ? Op.Type.SUSPEND : Op.Type.REVOKE;
            } else {
                double x = r.nextDouble();
                type = x < 0.6 ? Op.Type.REACTIVATE : x < 0.8 ? Op.Type.REVOKE : Op.Type.PERMISSIONS;
            }
            int variant = type == Op.Type.PERMISSIONS
                    ? (slot.permissions + 1 + r.nextInt(PERMISSION_VARIANTS.size() - 1))
                            % PERMISSION_VARIANTS.size()
                    : slot.permissions;
            StationStatus status = switch (type) {
                case SUSPEND -> StationStatus.SUSPENDED;
                case REACTIVATE -> StationStatus.ACTIVE;
                case REVOKE -> StationStatus.REVOKED;
                default -> slot.status;
            };
            int o = pick(operators.size());
            Op write = operatorWrite(slot, type, o, status, variant, null);
            if (write.acknowledged()) {
                slot.status = status;
                slot.permissions = variant;
                if (status == StationStatus.REVOKED) {
                    slot.revokedAtMs = write.completedMs();
                }
                readYourWrite(slot, write, operators.size() > 1 ? (o + 1 + pick(operators.size() - 1)) % operators.size() : o);
            } else if (write.mayHaveApplied()) {
                slot.retired = true;
            }
        } finally {
            slot.lock.unlock();
        }
    }

    /** A revocation and another change of one station sent to two Operator replicas at the same moment. */
    private void race() throws InterruptedException {
        if (operators.size() < 2) {
            change();
            return;
        }
        Slot slot = lockOne(s -> s.registered && !s.retired && s.status == StationStatus.ACTIVE);
        if (slot == null) {
            register();
            return;
        }
        try {
            String race = Long.toString(races.incrementAndGet());
            int a = pick(operators.size());
            int b = (a + 1 + pick(operators.size() - 1)) % operators.size();
            boolean suspend = ThreadLocalRandom.current().nextBoolean();
            int variant = (slot.permissions + 1) % PERMISSION_VARIANTS.size();
            CompletableFuture<Op> revoke = CompletableFuture.supplyAsync(
                    () -> uninterrupted(() -> operatorWrite(slot, Op.Type.REVOKE, a, StationStatus.REVOKED, slot.permissions, race)),
                    racers);
            CompletableFuture<Op> other = CompletableFuture.supplyAsync(() -> uninterrupted(() -> suspend
                    ? operatorWrite(slot, Op.Type.SUSPEND, b, StationStatus.SUSPENDED, slot.permissions, race)
                    : operatorWrite(slot, Op.Type.PERMISSIONS, b, StationStatus.ACTIVE, variant, race)), racers);
            Op revoked = revoke.join();
            other.join();
            slot.retired = true;
            if (revoked.acknowledged()) {
                slot.status = StationStatus.REVOKED;
                slot.revokedAtMs = revoked.completedMs();
            }
        } finally {
            slot.lock.unlock();
        }
    }

    private Op operatorWrite(Slot slot, Op.Type type, int o, StationStatus status, int variant, String race) throws InterruptedException {
        String id = slot.station.canonicalId();
        OperatorClient api = operators.get(o);
        long invoked = history.now();
        Call call = operatorCall(() -> switch (type) {
            case PERMISSIONS -> api.changePermissions(id, PERMISSION_VARIANTS.get(variant));
            case SUSPEND -> api.changeStatus(id, OperatorClient.StatusChange.SUSPEND);
            case REACTIVATE -> api.changeStatus(id, OperatorClient.StatusChange.REACTIVATE);
            case REVOKE -> api.changeStatus(id, OperatorClient.StatusChange.REVOKE);
            default -> throw new IllegalArgumentException(type + " is not a station change");
        });
        Map<String, String> detail = new LinkedHashMap<>();
        detail.put("status", status.name());
        detail.put("permissions", Permissions.encode(PERMISSION_VARIANTS.get(variant)));
        if (race != null) {
            detail.put("race", race);
        }
        return record(type, slot.station, operatorEndpoints.get(o).name(), invoked, call, detail);
    }

    private void readYourWrite(Slot slot, Op write, int o) throws InterruptedException {
        String id = slot.station.canonicalId();
        long invoked = history.now();
        Map<String, String> detail = new LinkedHashMap<>();
        detail.put("readOf", Long.toString(write.id()));
        Call call = operatorCall(() -> operators.get(o).read(id, write.token()));
        if (call.outcome == Op.Outcome.ACK && call.body != null) {
            detail.put("status", call.body.path("status").asText());
            detail.put("permissions", Permissions.encode(permissions(call.body.path("permissions"))));
        }
        record(Op.Type.READ, slot.station, operatorEndpoints.get(o).name(), invoked, call.withoutToken(), detail);
    }

    private static List<PsidSsp> permissions(JsonNode list) {
        List<PsidSsp> out = new ArrayList<>();
        for (JsonNode p : list) {
            long psid = p.path("psid").asLong();
            String type = p.path("sspType").asText("none");
            out.add(switch (type) {
                case "bitmap" -> PsidSsp.bitmap(psid, HEX.parseHex(p.path("ssp").asText()));
                case "opaque" -> PsidSsp.opaque(psid, HEX.parseHex(p.path("ssp").asText()));
                default -> PsidSsp.of(psid);
            });
        }
        return out;
    }

    // ---- vehicles ----

    /** Initial enrolment, or re-enrolment with the current EC, at another EA replica than last time. */
    private void enrol() throws InterruptedException {
        Slot slot = lockOne(s -> s.registered || s.retired);
        if (slot == null) {
            register();
            return;
        }
        try {
            SimulatedStation s = slot.station;
            boolean again = s.enrolled() && ThreadLocalRandom.current().nextDouble() < 0.6;
            int e = pick(eaReplicas.size());
            if (eaReplicas.get(e).name().equals(slot.lastEa) && eaReplicas.size() > 1) {
                e = (e + 1) % eaReplicas.size();
            }
            Endpoint target = eaReplicas.get(e);
            slot.lastEa = target.name();
            String previous = s.enrolled() ? s.enrolmentCredential().hashedId8().toHex() : null;
            ObuProtocol.Prepared p = ObuProtocol.retarget(again ? obu.prepareReenrolment(s) : obu.prepareEnrolment(s),
                    target.url().resolve(ea.enrolment().getPath()));
            Map<String, String> detail = new LinkedHashMap<>();
            detail.put("key", HEX.formatHex(p.newKey().publicKey().compressed()));
            if (previous != null) {
                detail.put("previousEc", previous);
            }
            long invoked = history.now();
            Call call = obuCall(() -> obu.enrol(p));
            if (call.outcome == Op.Outcome.ACK) {
                detail.put("ec", s.enrolmentCredential().hashedId8().toHex());
            }
            record(again ? Op.Type.REENROL : Op.Type.ENROL, s, target.name(), invoked, call, detail);
        } finally {
            slot.lock.unlock();
        }
    }

    /**
     * The initial enrolment of one registered, not yet enrolled station sent to two EA replicas at the
     * same moment (two copies of the station with its canonical key, each with its own new EC key). The
     * station keeps the copy that got an EC (the later answer if both did).
     */
    private void enrolmentRace() throws InterruptedException {
        if (eaReplicas.size() < 2) {
            enrol();
            return;
        }
        Slot slot = lockOne(s -> s.registered && !s.station.enrolled());
        if (slot == null) {
            register(1);
            return;
        }
        try {
            String race = "e" + races.incrementAndGet();
            SimulatedStation base = slot.station;
            int a = pick(eaReplicas.size());
            int b = (a + 1 + pick(eaReplicas.size() - 1)) % eaReplicas.size();
            SimulatedStation copyA = new SimulatedStation(base.canonicalId(), base.canonicalKey());
            SimulatedStation copyB = new SimulatedStation(base.canonicalId(), base.canonicalKey());
            CompletableFuture<Op> first = CompletableFuture.supplyAsync(() -> uninterrupted(() -> initialEnrolment(copyA, a, race)),
                    racers);
            CompletableFuture<Op> second = CompletableFuture.supplyAsync(() -> uninterrupted(() -> initialEnrolment(copyB, b, race)),
                    racers);
            Op x = first.join();
            Op y = second.join();
            if (x.acknowledged() && (!y.acknowledged() || x.completedMs() >= y.completedMs())) {
                slot.station = copyA;
                slot.lastEa = x.target();
            } else if (y.acknowledged()) {
                slot.station = copyB;
                slot.lastEa = y.target();
            }
        } finally {
            slot.lock.unlock();
        }
    }

    private Op initialEnrolment(SimulatedStation s, int e, String race) throws InterruptedException {
        Endpoint target = eaReplicas.get(e);
        ObuProtocol.Prepared p = ObuProtocol.retarget(obu.prepareEnrolment(s), target.url().resolve(ea.enrolment().getPath()));
        Map<String, String> detail = new LinkedHashMap<>();
        detail.put("key", HEX.formatHex(p.newKey().publicKey().compressed()));
        detail.put("race", race);
        long invoked = history.now();
        Call call = obuCall(() -> obu.enrol(p));
        if (call.outcome == Op.Outcome.ACK) {
            detail.put("ec", s.enrolmentCredential().hashedId8().toHex());
        }
        return record(Op.Type.ENROL, s, target.name(), invoked, history.now(), call, detail);
    }

    /** An AT request through an AA, for a recently revoked station when there is one (half the time). */
    private void authorize() throws InterruptedException {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        Slot slot = null;
        if (r.nextBoolean()) {
            long recent = history.now() - 60_000;
            slot = lockOne(s -> s.station.enrolled() && s.revokedAtMs > recent);
        }
        if (slot == null) {
            slot = lockOne(s -> s.station.enrolled());
        }
        if (slot == null) {
            enrol();
            return;
        }
        try {
            SimulatedStation s = slot.station;
            Endpoint aa = aas.get(pick(aas.size()));
            PkiEndpoints.Aa known = obu.endpoints().aas().get(0);
            ObuProtocol.Prepared p = ObuProtocol.retarget(obu.prepareAuthorization(s, known),
                    aa.url().resolve(known.authorization().getPath()));
            Map<String, String> detail = new LinkedHashMap<>();
            detail.put("ec", s.enrolmentCredential().hashedId8().toHex());
            long invoked = history.now();
            Call call = obuCall(() -> obu.authorize(p));
            record(Op.Type.AUTHORIZE, s, aa.name(), invoked, call, detail);
        } finally {
            slot.lock.unlock();
        }
    }

    // ---- plumbing ----

    /** Locks a random station matching {@code wanted} (a few tries over the pool); null if none could be had. */
    private Slot lockOne(java.util.function.Predicate<Slot> wanted) {
        List<Slot> pool = stations;
        int n = pool.size();
        if (n == 0) {
            return null;
        }
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 64; attempt++) {
            Slot s = pool.get(r.nextInt(n));
            if (s.lock.tryLock()) {
                if (wanted.test(s)) {
                    return s;
                }
                s.lock.unlock();
            }
        }
        return null;
    }

    private static int pick(int n) {
        return ThreadLocalRandom.current().nextInt(n);
    }

    /** How a request ended, before it is recorded. */
    private record Call(Op.Outcome outcome, String code, String token, JsonNode body, String problem) {
        Call withoutToken() {
            return new Call(outcome, code, null, body, problem);
        }
    }

    private interface OperatorRequest {
        OperatorClient.Answer send() throws IOException, InterruptedException;
    }

    private interface ObuRequest {
        Outcome send() throws IOException, InterruptedException;
    }

    private interface Interruptible<T> {
        T run() throws InterruptedException;
    }

    private static <T> T uninterrupted(Interruptible<T> body) {
        try {
            return body.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static Call operatorCall(OperatorRequest request) throws InterruptedException {
        try {
            OperatorClient.Answer a = request.send();
            if (a.ok()) {
                return new Call(Op.Outcome.ACK, "ok", a.version(), a.body(), null);
            }
            String code = a.problem() != null ? "operator:" + a.problem() : "http:" + a.status();
            return new Call(Op.Outcome.REFUSED, code, null, a.body(), a.problemDetail());
        } catch (IOException e) {
            return transportFailure(e);
        }
    }

    private static Call obuCall(ObuRequest request) throws InterruptedException {
        try {
            Outcome o = request.send();
            if (o.success()) {
                return new Call(Op.Outcome.ACK, "ok", null, null, null);
            }
            return new Call(o.code().equals("client:timeout") ? Op.Outcome.UNKNOWN : Op.Outcome.REFUSED, o.code(), null, null, null);
        } catch (IOException e) {
            return transportFailure(e);
        }
    }

    /** Connection refused or a connect timeout: the request never left; anything else: the outcome is unknown. */
    private static Call transportFailure(IOException e) {
        if (e instanceof HttpConnectTimeoutException) {
            return new Call(Op.Outcome.REFUSED, "client:connect-timeout", null, null, e.toString());
        }
        if (e instanceof ConnectException) {
            return new Call(Op.Outcome.REFUSED, "client:connect", null, null, e.toString());
        }
        if (e instanceof HttpTimeoutException) {
            return new Call(Op.Outcome.UNKNOWN, "client:timeout", null, null, e.toString());
        }
        return new Call(Op.Outcome.UNKNOWN, "client:io", null, null, e.toString());
    }

    private Op record(Op.Type type, SimulatedStation station, String target, long invoked, Call call, Map<String, String> detail) {
        return record(type, station, target, invoked, history.now(), call, detail);
    }

    private Op record(Op.Type type, SimulatedStation station, String target, long invoked, long completed, Call call,
                      Map<String, String> detail) {
        if (call.problem() != null) {
            detail.put("problem", call.problem().length() > 300 ? call.problem().substring(0, 300) : call.problem());
        }
        Op op = new Op(history.nextId(), type, station.canonicalId(), target, invoked, completed, call.outcome(), call.code(),
                call.token(), detail);
        history.add(op);
        return op;
    }

    private static List<PsidSsp> plus(PsidSsp... more) {
        List<PsidSsp> all = new ArrayList<>(AT_PERMISSIONS);
        all.addAll(List.of(more));
        return List.copyOf(all);
    }

    /** Daemon threads named {@code name-<n>}. */
    static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicLong n = new AtomicLong();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
