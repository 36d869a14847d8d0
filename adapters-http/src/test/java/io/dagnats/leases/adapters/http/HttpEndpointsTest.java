package io.dagnats.leases.adapters.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The three endpoints over real HTTP on a loopback port, with hand-written ports behind them. */
class HttpEndpointsTest {

    private final AtomicReference<Readiness> readiness = new AtomicReference<>(new Readiness.NotReady("starting"));
    private final AtomicReference<RuntimeException> scrapeFault = new AtomicReference<>();
    private final MetricsExposition metrics = new MetricsExposition() {
        @Override
        public String contentType() {
            return "text/plain; version=0.0.4; charset=utf-8";
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            if (scrapeFault.get() != null) {
                out.write("half a scrape".getBytes(StandardCharsets.UTF_8));
                throw scrapeFault.get();
            }
            out.write("# TYPE up gauge\nup 1\n".getBytes(StandardCharsets.UTF_8));
        }
    };
    private final HttpEndpoints endpoints = HttpEndpoints.start(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), readiness::get, metrics);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stop() {
        endpoints.close();
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + endpoints.address().getPort() + path);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
                .method(method, HttpRequest.BodyPublishers.noBody()).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void livenessAnswersWhateverTheReadiness() throws Exception {
        HttpResponse<String> live = send("GET", "/livez");

        assertEquals(200, live.statusCode());
        assertEquals("live\n", live.body());
    }

    @Test
    void readinessIs503WithItsReasonUntilReadyThen200() throws Exception {
        HttpResponse<String> starting = send("GET", "/readyz");
        assertEquals(503, starting.statusCode());
        assertEquals("not ready: starting\n", starting.body());

        readiness.set(new Readiness.Ready("leases unsupported: the server is too old"));
        HttpResponse<String> ready = send("GET", "/readyz");
        assertEquals(200, ready.statusCode());
        assertEquals("ready: leases unsupported: the server is too old\n", ready.body());
        assertEquals("text/plain; charset=utf-8", ready.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void aReadinessThatThrowsIsNotReady() throws Exception {
        readiness.set(null);

        HttpResponse<String> broken = send("GET", "/readyz");

        assertEquals(503, broken.statusCode());
        assertTrue(broken.body().startsWith("not ready: readiness could not be judged: "), broken.body());
    }

    @Test
    void metricsAreServedWithTheExpositionsContentType() throws Exception {
        HttpResponse<String> scrape = send("GET", "/metrics");

        assertEquals(200, scrape.statusCode());
        assertEquals("# TYPE up gauge\nup 1\n", scrape.body());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", scrape.headers().firstValue("Content-Type").orElseThrow());
    }

    @Test
    void aScrapeThatFailsIs500AndNeverHalfAScrape() throws Exception {
        scrapeFault.set(new IllegalStateException("collector broke"));

        HttpResponse<String> scrape = send("GET", "/metrics");

        assertEquals(500, scrape.statusCode());
        assertEquals("metrics could not be collected: java.lang.IllegalStateException: collector broke\n", scrape.body());
    }

    @Test
    void headAnswersWithoutABodyAndOtherMethodsAndPathsAreRefused() throws Exception {
        readiness.set(new Readiness.Ready("leases supported"));
        HttpResponse<String> head = send("HEAD", "/readyz");
        assertEquals(200, head.statusCode());
        assertEquals("", head.body());

        HttpResponse<String> post = send("POST", "/readyz");
        assertEquals(405, post.statusCode());
        assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());

        assertEquals(404, send("GET", "/").statusCode());
        assertEquals(404, send("GET", "/livezz").statusCode());
        assertEquals(404, send("GET", "/metrics/extra").statusCode());
    }
}
