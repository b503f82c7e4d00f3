package eu.vpki.common.fleet;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import eu.vpki.common.etsi.ts103097.HashedId8;
import eu.vpki.common.etsi.ts103097.TestPki;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cache's invalidation, step by step on one thread: each interleaving of a read with a write of
 * the state machine that matters, played in order (what the read found is given, not read).
 */
class EcStationCacheTest {
    private static final EtsiCertificate EC = TestPki.fixed().issueEc(EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM));
    private static final HashedId8 ID = EC.hashedId8();
    private static final String ORIGIN = "ea-1~1";
    private static final FleetState.EcAndStation READ = new FleetState.EcAndStation(
            Optional.of(new EcRecord(EC, "VIN-1", EcRecord.Status.ACTIVE, 1)), Optional.empty());

    private final EcStationCache cache = new EcStationCache(16);

    @Test
    void readWithNoWriteAround_isKept() {
        cache.offer(ID, ORIGIN, cache.readStart(), READ);

        assertThat(cache.find(ID, ORIGIN)).isSameAs(READ);
    }

    @Test
    void writeToTheEc_theStationOrItsPermissions_voidsTheEntry_beforeItIsSent() {
        for (String key : List.of(FleetKeys.ec(ID), FleetKeys.station("VIN-1"), FleetKeys.stationPermissions("VIN-1"))) {
            cache.offer(ID, ORIGIN, cache.readStart(), READ);
            assertThat(cache.find(ID, ORIGIN)).isSameAs(READ);

            cache.writing(List.of(key)); // announced, not sent to Redis yet

            assertThat(cache.find(ID, ORIGIN)).as("after a write to %s began", key).isNull();
            cache.written();
            assertThat(cache.find(ID, ORIGIN)).isNull();
        }
    }

    @Test
    void readOverlappingAWriteToItsKeys_isNotKept() {
        // the reader starts, Redis answers the old value, the write begins and returns, then the reader offers
        long start = cache.readStart();
        cache.writing(List.of(FleetKeys.station("VIN-1")));
        cache.written();
        cache.offer(ID, ORIGIN, start, READ);
        assertThat(cache.find(ID, ORIGIN)).isNull();

        // the write began before the read started and had not returned: Redis may have answered either value
        cache.writing(List.of(FleetKeys.ec(ID)));
        long during = cache.readStart();
        cache.offer(ID, ORIGIN, during, READ);
        assertThat(cache.find(ID, ORIGIN)).isNull();
        cache.written();

        // a read that started after the write returned saw it
        cache.offer(ID, ORIGIN, cache.readStart(), READ);
        assertThat(cache.find(ID, ORIGIN)).isSameAs(READ);
    }

    @Test
    void writesToOtherKeys_keepTheEntry() {
        String other = FleetKeys.station("VIN-2");
        assertThat(EcStationCache.stripe(other)).isNotIn(EcStationCache.stripe(FleetKeys.ec(ID)),
                EcStationCache.stripe(FleetKeys.station("VIN-1")), EcStationCache.stripe(FleetKeys.stationPermissions("VIN-1")));
        long start = cache.readStart();
        cache.writing(List.of(other));
        cache.written();
        cache.offer(ID, ORIGIN, start, READ);
        cache.writing(List.of(other));
        cache.written();

        assertThat(cache.find(ID, ORIGIN)).isSameAs(READ);
    }

    @Test
    void replacingTheState_voidsEveryEntry_andReadsOverlappingIt() {
        cache.offer(ID, ORIGIN, cache.readStart(), READ);
        long start = cache.readStart();
        cache.replacing();

        assertThat(cache.find(ID, ORIGIN)).isNull();
        cache.offer(ID, ORIGIN, start, READ);
        assertThat(cache.find(ID, ORIGIN)).isNull();
        cache.written();
        cache.offer(ID, ORIGIN, start, READ);
        assertThat(cache.find(ID, ORIGIN)).isNull();
    }

    @Test
    void entryOfAnEarlierIncarnation_isVoid() {
        cache.offer(ID, ORIGIN, cache.readStart(), READ);

        assertThat(cache.find(ID, "ea-1~2")).isNull();
        assertThat(cache.find(ID, ORIGIN)).as("removed").isNull();
    }

    @Test
    void unknownEc_isNotKept() {
        cache.offer(ID, ORIGIN, cache.readStart(), new FleetState.EcAndStation(Optional.empty(), Optional.empty()));

        assertThat(cache.size()).isZero();
    }

    @Test
    void isBounded() {
        EcStationCache small = new EcStationCache(2);
        for (int i = 0; i < 5; i++) {
            EtsiCertificate ec = TestPki.fixed().issueEc(EtsiKeyPair.generate(EtsiCurve.NIST_P256, TestPki.RANDOM));
            small.offer(ec.hashedId8(), ORIGIN, small.readStart(), new FleetState.EcAndStation(
                    Optional.of(new EcRecord(ec, "VIN-" + i, EcRecord.Status.ACTIVE, 1)), Optional.empty()));
            assertThat(small.size()).isLessThanOrEqualTo(2);
        }
        assertThat(small.size()).isEqualTo(2);
    }
}
