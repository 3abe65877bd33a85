package io.shardvault.common.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.shardvault.common.DaemonThreads;
import io.shardvault.common.metrics.ProcessMetrics;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A service's admin HTTP port.
 *
 * <table>
 *   <caption>Endpoints (GET or HEAD)</caption>
 *   <tr><th>path</th><th>answer</th></tr>
 *   <tr><td>/metrics</td><td>200, every meter in the Prometheus text format</td></tr>
 *   <tr><td>/health/live</td><td>200 {@code live} while the process runs</td></tr>
 *   <tr><td>/health/ready</td><td>200 {@code ready}, or 503 with the reason, from the {@link ReadinessCheck}</td></tr>
 * </table>
 * Other paths answer 404, other methods 405. With a {@link AdminConfig#token()}, every request without
 * that bearer token answers 401 with {@code WWW-Authenticate: Bearer}, whatever its path or method;
 * with {@link AdminConfig#tls()} the port speaks HTTPS only, with the service's cluster certificate.
 * Requests are served by {@link AdminConfig#threads()}
 * threads with a short queue; when the queue is full the server's accepting thread answers the
 * request itself, which slows down accepting new connections instead of queueing without bound.
 *
 * <pre>
 *  start() ──▶ SERVING ──close()──▶ CLOSED
 * </pre>
 * <p>Thread-safe. Not usable after {@link #close()}.
 */
public final class AdminServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);
    private static final int QUEUED_REQUESTS = 32;

    private final HttpServer http;
    private final ThreadPoolExecutor executor;

    private AdminServer(HttpServer http, ThreadPoolExecutor executor) {
        this.http = http;
        this.executor = executor;
    }

    /**
     * Binds and starts serving.
     *
     * @throws IOException when the address cannot be bound
     */
    public static AdminServer start(AdminConfig config, ProcessMetrics metrics, ReadinessCheck readiness)
            throws IOException {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(readiness, "readiness");
        HttpServer http;
        if (config.tls().isPresent()) {
            HttpsServer https = HttpsServer.create(config.bind(), QUEUED_REQUESTS);
            https.setHttpsConfigurator(new HttpsConfigurator(AdminHttps.serverContext(config.tls().get())));
            http = https;
        } else {
            http = HttpServer.create(config.bind(), QUEUED_REQUESTS);
        }
        Optional<BearerToken> token = config.token();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(config.threads(), config.threads(), 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUED_REQUESTS), DaemonThreads.numbered("admin-http"),
                new ThreadPoolExecutor.CallerRunsPolicy());
        http.setExecutor(executor);
        http.createContext("/metrics", get(token, exchange ->
                new Answer(200, ProcessMetrics.scrapeContentType(), metrics.scrape())));
        http.createContext("/health/live", get(token, exchange -> Answer.text(200, "live")));
        http.createContext("/health/ready", get(token, exchange -> {
            Readiness r;
            try {
                r = readiness.check();
            } catch (RuntimeException e) {
                r = Readiness.notReady("readiness check failed: " + e);
            }
            return Answer.text(r.isReady() ? 200 : 503, r.reason());
        }));
        http.createContext("/", get(token, exchange -> Answer.text(404, "no such admin endpoint: "
                + exchange.getRequestURI().getPath())));
        http.start();
        AdminServer server = new AdminServer(http, executor);
        LOG.info("admin serving address={} tls={} token={}", server.localAddress(), config.tls().isPresent() ? "on" : "off",
                token.isPresent() ? "required" : "off");
        return server;
    }

    /** The bound address, with the real port when 0 was asked for. */
    public InetSocketAddress localAddress() {
        return http.getAddress();
    }

    /**
     * Stops listening and stops the threads. Answers being written are cut off: a scraper retries,
     * and the JDK server's stop(delay) would otherwise hold shutdown for the whole delay.
     */
    @Override
    public void close() {
        http.stop(0);
        executor.shutdownNow();
    }

    private record Answer(int status, String contentType, String body) {
        static Answer text(int status, String body) {
            return new Answer(status, "text/plain; charset=utf-8", body + "\n");
        }
    }

    private interface Endpoint {
        Answer answer(HttpExchange exchange);
    }

    private static HttpHandler get(Optional<BearerToken> token, Endpoint endpoint) {
        return exchange -> {
            try (exchange) {
                String method = exchange.getRequestMethod();
                boolean head = "HEAD".equals(method);
                Answer answer;
                if (token.isPresent() && !token.get().admits(exchange.getRequestHeaders().getFirst("Authorization"))) {
                    // Before the method and path: a caller without the token learns nothing of the port.
                    exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"shardvault admin\"");
                    answer = Answer.text(401, "a bearer token is required");
                } else if (head || "GET".equals(method)) {
                    answer = endpoint.answer(exchange);
                } else {
                    answer = Answer.text(405, "method not allowed: " + method);
                    exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                }
                byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", answer.contentType());
                exchange.getResponseHeaders().set("Cache-Control", "no-store");
                if (head) {
                    exchange.sendResponseHeaders(answer.status(), -1);
                    return;
                }
                exchange.sendResponseHeaders(answer.status(), body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            } catch (IOException | RuntimeException e) {
                // A scraper that hangs up mid-answer is not the service's problem; log and move on.
                LOG.debug("admin request failed path={} error={}", exchange.getRequestURI().getPath(), e.toString());
            }
        };
    }
}
