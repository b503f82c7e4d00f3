package eu.vpki.common.distribution;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import eu.vpki.common.etsi.ts102941.Crl;
import eu.vpki.common.etsi.ts102941.RcaCtl;
import eu.vpki.common.etsi.ts102941.TrustLists;
import eu.vpki.common.etsi.ts103097.CertificateChecks;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.SignedMessage;
import eu.vpki.common.etsi.validation.TrustStore;
import eu.vpki.common.http.HttpClients;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a relying party's view of one Root CA current: fetches the full CTL and the CRL from the
 * Distribution Centres ({@code GET {dc}/getctl/{RCA}}, {@code GET {dc}/getcrl/{RCA}}), verifies both
 * against the RCA certificate it was given ({@link TrustLists#readCtl}, {@link TrustLists#readCrl})
 * and builds a {@link TrustStore} from them.
 *
 * <ul>
 *   <li>DCs are tried in order, starting with the last one that answered; a DC that fails (network,
 *       status, bad signature, delta instead of full list, older lists) is skipped for the next.</li>
 *   <li>A CTL replaces the held one only if it is newer ({@link CtlSequence#supersedes}): a lower or
 *       equal {@code ctlSequence} never replaces a newer full CTL, so a lagging DC cannot roll a
 *       revocation back. A CRL replaces the held one only if its {@code thisUpdate} is not earlier.</li>
 *   <li>Requests are conditional ({@code If-None-Match} with the SHA-256 ETag the DC sends): an
 *       unchanged list costs a 304.</li>
 *   <li>The caller passes the time: {@link #refreshIfDue(Instant)} fetches when nothing is held, when
 *       the last successful fetch is older than {@link Options#maxAge()}, or when the earliest
 *       {@code nextUpdate} of the held lists is less than {@link Options#nextUpdateMargin()} away.</li>
 * </ul>
 *
 * <p>Thread-safe: {@link #current()} is a lock-free read of an immutable snapshot; refreshes are
 * serialized. Typical use (an EA or AA scheduler):
 * <pre>{@code
 * TrustListClient client = new TrustListClient(List.of(URI.create("http://dc1:8082/")), rcaCertificate,
 *         TrustListClient.Options.defaults());
 * client.refresh(clock.instant());                    // at start; throws if no DC answered
 * ...
 * client.refreshIfDue(clock.instant());               // every minute or so
 * TrustStore trust = client.current();                // per request
 * }</pre>
 */
public final class TrustListClient {
    private static final Logger LOG = LoggerFactory.getLogger(TrustListClient.class);
    private static final int MAX_BODY_BYTES = 1 << 20;

    /**
     * @param connectTimeout    TCP connect timeout per DC
     * @param requestTimeout    whole-request timeout per list
     * @param maxAge            refetch when the last successful fetch is this old (catches changes early)
     * @param nextUpdateMargin  refetch when the earliest held {@code nextUpdate} is this close
     */
    public record Options(Duration connectTimeout, Duration requestTimeout, Duration maxAge, Duration nextUpdateMargin) {
        public Options {
            for (Duration d : new Duration[]{connectTimeout, requestTimeout, maxAge, nextUpdateMargin}) {
                if (d == null || d.isNegative() || d.isZero()) {
                    throw new PkiException(ErrorCode.INVALID_ARGUMENT, "TrustListClient durations must be positive");
                }
            }
        }

        /** 5 s connect, 10 s per request, refetch after 15 minutes or 1 hour before nextUpdate. */
        public static Options defaults() {
            return new Options(Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofMinutes(15), Duration.ofHours(1));
        }
    }

    /** What is held: both lists as verified, their encodings, and where and when they came from. */
    public record Snapshot(RcaCtl ctl, Crl crl, TrustStore trustStore, byte[] ctlEncoded, byte[] crlEncoded,
                           Instant ctlGenerated, URI source, Instant fetchedAt) {
        public Snapshot {
            ctlEncoded = ctlEncoded.clone();
            crlEncoded = crlEncoded.clone();
        }

        @Override
        public byte[] ctlEncoded() {
            return ctlEncoded.clone();
        }

        @Override
        public byte[] crlEncoded() {
            return crlEncoded.clone();
        }

        /** The earlier of the two lists' {@code nextUpdate}. */
        public Instant nextUpdate() {
            return ctl.nextUpdate().isBefore(crl.nextUpdate()) ? ctl.nextUpdate() : crl.nextUpdate();
        }
    }

    private final List<URI> distributionCentres;
    private final EtsiCertificate rca;
    private final Options options;
    private final HttpClient http;
    private final Object refreshLock = new Object();
    private volatile Snapshot snapshot;
    private int preferred;

    /**
     * @param distributionCentres DC base URLs (e.g. {@code http://dc.example:8082/}), tried in order
     * @param rca                 the trusted, self-signed Root CA certificate
     */
    public TrustListClient(List<URI> distributionCentres, EtsiCertificate rca, Options options) {
        this(distributionCentres, rca, options, (SSLContext) null);
    }

    /**
     * As {@link #TrustListClient(List, EtsiCertificate, Options)}, {@code https} DC URLs verified with
     * {@code tls} (e.g. trusting the deployment's TLS CA only); null: the JDK's public CAs.
     */
    public TrustListClient(List<URI> distributionCentres, EtsiCertificate rca, Options options, SSLContext tls) {
        this(distributionCentres, rca, options, HttpClients.of(HttpClient.Version.HTTP_2, options.connectTimeout()).trusting(tls)
                .redirects(HttpClient.Redirect.NORMAL).build());
    }

    /** As {@link #TrustListClient(List, EtsiCertificate, Options)} with a caller-configured HTTP client. */
    public TrustListClient(List<URI> distributionCentres, EtsiCertificate rca, Options options, HttpClient http) {
        if (distributionCentres == null || distributionCentres.isEmpty()) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, "at least one Distribution Centre URL is needed");
        }
        CertificateChecks.checkIssuedBy(rca, null, null);
        this.distributionCentres = List.copyOf(distributionCentres);
        this.rca = rca;
        this.options = options;
        this.http = http;
    }

    public EtsiCertificate rca() {
        return rca;
    }

    public List<URI> distributionCentres() {
        return distributionCentres;
    }

    /**
     * The trust store of the lists held.
     *
     * @throws PkiException NOT_TRUSTED when no lists have been fetched yet
     */
    public TrustStore current() {
        return requireSnapshot().trustStore();
    }

    /** The held full CTL, if any. */
    public Optional<RcaCtl> ctl() {
        return snapshot().map(Snapshot::ctl);
    }

    /** The held CRL, if any. */
    public Optional<Crl> crl() {
        return snapshot().map(Snapshot::crl);
    }

    public Optional<Snapshot> snapshot() {
        return Optional.ofNullable(snapshot);
    }

    /** Whether {@link #refreshIfDue} would fetch at {@code now}. */
    public boolean due(Instant now) {
        Snapshot s = snapshot;
        return s == null
                || !now.isBefore(s.fetchedAt().plus(options.maxAge()))
                || !now.isBefore(s.nextUpdate().minus(options.nextUpdateMargin()));
    }

    /**
     * Refreshes if {@link #due}; otherwise does nothing.
     *
     * @return whether a refresh ran (and succeeded)
     * @throws PkiException UNAVAILABLE when a refresh was due and no DC gave valid lists (the held
     *                      lists stay in use)
     */
    public boolean refreshIfDue(Instant now) {
        if (!due(now)) {
            return false;
        }
        refresh(now);
        return true;
    }

    /**
     * Fetches from the DCs now, keeps whichever lists are newest, and returns what is held afterwards.
     *
     * @throws PkiException UNAVAILABLE when no DC gave valid lists at least as new as those held
     */
    public Snapshot refresh(Instant now) {
        synchronized (refreshLock) {
            List<String> failures = new ArrayList<>();
            for (int i = 0; i < distributionCentres.size(); i++) {
                int index = (preferred + i) % distributionCentres.size();
                URI dc = distributionCentres.get(index);
                try {
                    Snapshot next = fetchFrom(dc, now);
                    preferred = index;
                    snapshot = next;
                    return next;
                } catch (PkiException | IOException e) {
                    failures.add(dc + ": " + e.getMessage());
                    LOG.debug("trust lists of RCA {} from {} not taken: {}", rca.hashedId8(), dc, e.toString());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new PkiException(ErrorCode.UNAVAILABLE, "interrupted while fetching trust lists", e);
                }
            }
            throw new PkiException(ErrorCode.UNAVAILABLE, "no Distribution Centre gave valid trust lists for RCA "
                    + rca.hashedId8() + ": " + String.join("; ", failures));
        }
    }

    private Snapshot fetchFrom(URI dc, Instant now) throws IOException, InterruptedException {
        Snapshot held = snapshot;
        byte[] ctlBytes = get(DistributionPaths.ctl(dc, rca.hashedId8()), held == null ? null : held.ctlEncoded);
        byte[] crlBytes = get(DistributionPaths.crl(dc, rca.hashedId8()), held == null ? null : held.crlEncoded);

        RcaCtl ctl;
        Instant ctlGenerated;
        boolean ctlChanged = ctlBytes != null && (held == null || !Arrays.equals(ctlBytes, held.ctlEncoded));
        if (ctlChanged) {
            ctl = TrustLists.readCtl(ctlBytes, rca);
            if (!ctl.full()) {
                throw new PkiException(ErrorCode.UNEXPECTED_CONTENT, "served a delta CTL where the full CTL was asked for");
            }
            ctlGenerated = SignedMessage.parse(ctlBytes).generationTime().orElse(null);
            if (held != null && !CtlSequence.supersedes(ctl.sequence(), ctlGenerated, held.ctl.sequence(), held.ctlGenerated,
                    held.ctl.nextUpdate(), now)) {
                throw new PkiException(ErrorCode.STALE_DATA, "served ctlSequence " + ctl.sequence()
                        + ", which does not follow the held " + held.ctl.sequence());
            }
        } else {
            ctl = held.ctl;
            ctlGenerated = held.ctlGenerated;
            ctlBytes = held.ctlEncoded;
        }

        Crl crl;
        boolean crlChanged = crlBytes != null && (held == null || !Arrays.equals(crlBytes, held.crlEncoded));
        if (crlChanged) {
            crl = TrustLists.readCrl(crlBytes, rca);
            if (held != null && crl.thisUpdate().isBefore(held.crl.thisUpdate())) {
                throw new PkiException(ErrorCode.STALE_DATA, "served a CRL of " + crl.thisUpdate()
                        + ", older than the held one of " + held.crl.thisUpdate());
            }
        } else {
            crl = held.crl;
            crlBytes = held.crlEncoded;
        }

        TrustStore store = ctlChanged || crlChanged ? TrustStore.fromCtl(rca, ctl, crl) : held.trustStore;
        if (ctlChanged || crlChanged) {
            LOG.info("trust lists of RCA {} from {}: ctlSequence {}, {} EA, {} AA, {} revoked", rca.hashedId8(), dc,
                    ctl.sequence(), ctl.enrolmentAuthorities().size(), ctl.authorizationAuthorities().size(), crl.revoked().size());
        }
        return new Snapshot(ctl, crl, store, ctlBytes, crlBytes, ctlGenerated, dc, now);
    }

    /** GET with If-None-Match for {@code held}; null on 304 (unchanged). */
    private byte[] get(URI uri, byte[] held) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(options.requestTimeout()).GET();
        if (held != null) {
            request.header("If-None-Match", DistributionPaths.etag(held));
        }
        HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = response.body()) {
            if (response.statusCode() == 304 && held != null) {
                return null;
            }
            if (response.statusCode() != 200) {
                throw new PkiException(ErrorCode.UNAVAILABLE, "GET " + uri + " answered " + response.statusCode());
            }
            byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                throw new PkiException(ErrorCode.OVERSIZE_INPUT, "GET " + uri + " answered more than " + MAX_BODY_BYTES + " bytes");
            }
            return body;
        }
    }

    private Snapshot requireSnapshot() {
        Snapshot s = snapshot;
        if (s == null) {
            throw new PkiException(ErrorCode.NOT_TRUSTED, "no trust lists of RCA " + rca.hashedId8() + " fetched yet");
        }
        return s;
    }
}
