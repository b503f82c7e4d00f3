package eu.vpki.common.http;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.ExecutorService;

import static org.assertj.core.api.Assertions.assertThat;

class HttpClientsTest {

    @Test
    void http11_setsTheVersionAndConnectTimeout_andKeepsTheJdkTrustAndRedirects() throws Exception {
        HttpClient http = HttpClients.http11(Duration.ofSeconds(2)).build();
        assertThat(http.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(http.connectTimeout()).contains(Duration.ofSeconds(2));
        assertThat(http.sslContext()).isSameAs(SSLContext.getDefault());
        assertThat(http.followRedirects()).isEqualTo(HttpClient.Redirect.NEVER);
        assertThat(http.executor()).isEmpty();
    }

    @Test
    void trusting_usesTheGivenContext_andNullMeansTheJdksPublicCas() throws Exception {
        SSLContext own = SSLContext.getInstance("TLS");
        own.init(null, null, null);
        assertThat(HttpClients.http11(Duration.ofSeconds(1)).trusting(own).build().sslContext()).isSameAs(own);
        assertThat(HttpClients.http11(Duration.ofSeconds(1)).trusting(null).build().sslContext()).isSameAs(SSLContext.getDefault());
        assertThat(HttpClients.http11(Duration.ofSeconds(1)).trustingPemCa(null).build().sslContext()).isSameAs(SSLContext.getDefault());
    }

    @Test
    void of_redirects_andDaemonThreads_areApplied() throws Exception {
        HttpClient http = HttpClients.of(HttpClient.Version.HTTP_2, Duration.ofSeconds(3)).redirects(HttpClient.Redirect.NORMAL)
                .daemonThreads("http").build();
        assertThat(http.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(http.followRedirects()).isEqualTo(HttpClient.Redirect.NORMAL);
        ExecutorService executor = (ExecutorService) http.executor().orElseThrow();
        Thread[] ran = new Thread[1];
        executor.submit(() -> ran[0] = Thread.currentThread()).get();
        assertThat(ran[0].isDaemon()).isTrue();
        assertThat(ran[0].getName()).isEqualTo("http");
    }
}
