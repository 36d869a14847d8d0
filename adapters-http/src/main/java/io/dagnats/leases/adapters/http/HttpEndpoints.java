package io.dagnats.leases.adapters.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code GET /livez} (200 while the process serves HTTP at all), {@code GET /readyz}
 * (200 or 503 from the {@link ReadinessSource}, its reason in the body) and
 * {@code GET /metrics} (the {@link MetricsExposition}), on the JDK's HTTP server with
 * two threads of its own, so a slow scrape never holds up a probe. HEAD is answered
 * like GET without a body; other methods get 405, other paths 404.
 */
public final class HttpEndpoints implements AutoCloseable {

    static final String LIVE = "/livez";
    static final String READY = "/readyz";
    static final String METRICS = "/metrics";
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final System.Logger LOG = System.getLogger(HttpEndpoints.class.getName());

    private final HttpServer server;
    private final ExecutorService threads;
    private final ReadinessSource readiness;
    private final MetricsExposition metrics;
    /** A failing scrape or readiness is logged once, not once per probe. */
    private volatile boolean faultLogged;

    private HttpEndpoints(HttpServer server, ExecutorService threads, ReadinessSource readiness,
            MetricsExposition metrics) {
        this.server = server;
        this.threads = threads;
        this.readiness = readiness;
        this.metrics = metrics;
    }

    /**
     * Listens on {@code address} (port 0: any free port; see {@link #address()}) and serves.
     *
     * @throws UncheckedIOException when the address cannot be listened on (in use, not this host's)
     */
    public static HttpEndpoints start(InetSocketAddress address, ReadinessSource readiness, MetricsExposition metrics) {
        Objects.requireNonNull(readiness, "readiness");
        Objects.requireNonNull(metrics, "metrics");
        HttpServer server;
        try {
            server = HttpServer.create(address, 0);
        } catch (IOException unusable) {
            throw new UncheckedIOException(unusable.getMessage() == null ? unusable.toString() : unusable.getMessage(),
                    unusable);
        }
        AtomicInteger count = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "dagnats-http-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        HttpEndpoints endpoints = new HttpEndpoints(server, threads, readiness, metrics);
        server.createContext("/", endpoints::handle);
        server.setExecutor(threads);
        server.start();
        return endpoints;
    }

    /** Where it listens, with the port it was given when asked for any. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!"GET".equals(method) && !"HEAD".equals(method)) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                reply(exchange, 405, TEXT, line("method not allowed: only GET and HEAD"));
                return;
            }
            switch (exchange.getRequestURI().getPath()) {
                case LIVE -> reply(exchange, 200, TEXT, line("live"));
                case READY -> ready(exchange);
                case METRICS -> scrape(exchange);
                default -> reply(exchange, 404, TEXT, line("not found: dagnats serves " + LIVE + ", " + READY
                        + " and " + METRICS));
            }
        } catch (IOException clientGone) {
            // The prober or scraper hung up before the answer was written: nothing to tell anyone.
        }
    }

    private void ready(HttpExchange exchange) throws IOException {
        Readiness now;
        try {
            now = Objects.requireNonNull(readiness.now(), "the readiness source answered null");
        } catch (RuntimeException bug) {
            logOnce("judging readiness", bug);
            now = new Readiness.NotReady("readiness could not be judged: " + bug);
        }
        boolean ready = now instanceof Readiness.Ready;
        reply(exchange, ready ? 200 : 503, TEXT, line((ready ? "ready: " : "not ready: ") + now.reason()));
    }

    private void scrape(HttpExchange exchange) throws IOException {
        // Collected in full before anything is sent, so a failure is a 500, never half a scrape.
        ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
        try {
            metrics.writeTo(body);
        } catch (RuntimeException failed) {
            logOnce("collecting metrics", failed);
            reply(exchange, 500, TEXT, line("metrics could not be collected: " + failed));
            return;
        }
        reply(exchange, 200, metrics.contentType(), body.toByteArray());
    }

    private static void reply(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        if ("HEAD".equals(exchange.getRequestMethod())) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static byte[] line(String text) {
        return (text + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private void logOnce(String where, RuntimeException fault) {
        if (!faultLogged) {
            faultLogged = true;
            LOG.log(System.Logger.Level.WARNING, "dagnats' HTTP endpoints failed while " + where
                    + " (logged once): " + fault, fault);
        }
    }

    /** Stops listening and ends the exchanges in progress. */
    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
