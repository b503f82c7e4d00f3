package eu.vpki.experiments;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegionTest {
    @Test
    void delays_areSymmetric_zeroInsideARegion_andIrelandToUsWestIs70ms() {
        for (Region a : Region.values()) {
            assertThat(a.oneWayTo(a)).isZero();
            for (Region b : Region.values()) {
                assertThat(a.oneWayTo(b)).isEqualTo(b.oneWayTo(a));
                if (a != b) {
                    assertThat(a.oneWayTo(b)).isPositive();
                }
            }
        }
        assertThat(Region.IRELAND.oneWayTo(Region.US_WEST)).isEqualTo(Duration.ofMillis(70));
    }

    @Test
    void parse_acceptsAwsNamesConstantsAndPlaces() {
        assertThat(Region.parse("eu-west-1")).isEqualTo(Region.IRELAND);
        assertThat(Region.parse("us-west")).isEqualTo(Region.US_WEST);
        assertThat(Region.parse("Oregon")).isEqualTo(Region.US_WEST);
        assertThatThrownBy(() -> Region.parse("mars-1")).hasMessageContaining("unknown region");
    }
}
