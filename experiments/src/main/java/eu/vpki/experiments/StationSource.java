package eu.vpki.experiments;

import eu.vpki.common.http.HttpClients;
import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.ts103097.PsidSsp;
import eu.vpki.testbed.LocalCluster;
import eu.vpki.station.FleetRegistrar;
import eu.vpki.station.SimulatedStation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

/**
 * Fresh simulated stations (nistP256 canonical keys, ids unique to the run), registered through the
 * cluster's first Operator before they are used, outside any timed window: every enrolment of an
 * experiment is a station's first.
 */
final class StationSource {
    private final FleetRegistrar registrar;
    private final List<PsidSsp> permissions;
    private final SecureRandom random = new SecureRandom();
    private final String prefix;
    private final AtomicLong next = new AtomicLong();

    StationSource(HttpClient http, LocalCluster.Endpoints cluster, List<PsidSsp> permissions, String tag) {
        this(http, cluster, 0, permissions, tag);
    }

    /** Registering through the cluster's Operator number {@code operator}. */
    StationSource(HttpClient http, LocalCluster.Endpoints cluster, int operator, List<PsidSsp> permissions, String tag) {
        // the Operator speaks https only, with a certificate of the cluster's TLS CA: the registrar trusts that CA
        this.registrar = new FleetRegistrar(HttpClients.http11(java.time.Duration.ofSeconds(5)).trustingPemCa(cluster.tlsCa()).build(),
                cluster.operators().get(operator), cluster.operatorToken());
        this.permissions = List.copyOf(permissions);
        this.prefix = "VIN-" + tag + Long.toHexString(random.nextLong() & 0xffffffffL) + "-";
    }

    /** {@code n} new stations, registered for {@code permissions} with a year's EC validity. */
    List<SimulatedStation> register(int n) {
        List<SimulatedStation> fresh = IntStream.range(0, n).parallel()
                .mapToObj(i -> SimulatedStation.generate(prefix + next.incrementAndGet(), EtsiCurve.NIST_P256, random)).toList();
        try {
            registrar.register(fresh, permissions, Duration.ofDays(365), 1000);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted registering stations", e);
        }
        return fresh;
    }
}
