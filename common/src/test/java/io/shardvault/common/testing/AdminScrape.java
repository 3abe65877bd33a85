package io.shardvault.common.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardvault.common.admin.PrometheusText;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Plain HTTP GETs against a process's admin endpoint ({@code /health/live}, {@code /health/ready},
 * {@code /metrics}), as a scraper or a load balancer would make them. Thread-safe.
 */
public final class AdminScrape {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final String address;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** @param address the admin endpoint's {@code host:port}, as the process prints it */
    public AdminScrape(String address) {
        this.address = address;
    }

    /** GET {@code path}, whatever the status. */
    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://" + address + path)).timeout(TIMEOUT).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** GET {@code /metrics}, asserting a 200, parsed. */
    public PrometheusText metrics() throws IOException, InterruptedException {
        HttpResponse<String> metrics = get("/metrics");
        assertThat(metrics.statusCode()).as("GET /metrics: %s", metrics.body()).isEqualTo(200);
        return PrometheusText.parse(metrics.body());
    }
}
