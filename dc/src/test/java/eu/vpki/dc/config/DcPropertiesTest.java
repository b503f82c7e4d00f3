package eu.vpki.dc.config;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DcPropertiesTest {

    private static DcProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bindOrCreate("vpki.dc", DcProperties.class);
    }

    @Test
    void withoutKeys_theRcaTimeoutsAreFiveAndTenSeconds_andNothingIsDeprecated() {
        DcProperties dc = bind(Map.of());
        assertThat(dc.rca().connectTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(dc.rcaRequestTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(dc.deprecationWarning()).isEmpty();
    }

    @Test
    void rcaKeys_setTheTimeoutsToTheRca() {
        DcProperties dc = bind(Map.of("vpki.dc.rca.connect-timeout", "1s", "vpki.dc.rca.request-timeout", "3s"));
        assertThat(dc.rca().connectTimeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(dc.rcaRequestTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(dc.deprecationWarning()).isEmpty();
    }

    @Test
    void theOldRequestTimeoutKey_isStillAccepted_withADeprecationWarning() {
        DcProperties dc = bind(Map.of("vpki.dc.request-timeout", "PT7S"));
        assertThat(dc.rcaRequestTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(dc.deprecationWarning()).hasValueSatisfying(warning -> assertThat(warning)
                .contains("vpki.dc.request-timeout is deprecated").contains("rename it to vpki.dc.rca.request-timeout"));
    }

    @Test
    void withBothKeys_theNewOneWins_andTheOldOneIsReportedIgnored() {
        DcProperties dc = bind(Map.of("vpki.dc.request-timeout", "PT7S", "vpki.dc.rca.request-timeout", "PT2S"));
        assertThat(dc.rcaRequestTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(dc.deprecationWarning()).hasValueSatisfying(warning -> assertThat(warning).contains("ignored"));
    }
}
