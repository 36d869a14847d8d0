package io.dagnats.leases.acceptance.durability;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A wire-level holder on a thread of its own that follows the holder rules of
 * the contract, and keeps its own record of what it believed and was told, as
 * a user's replica on another machine would: it lives through a power cut of
 * the servers.
 *
 * <p>It campaigns for one key; after {@code granted} it renews at once and acts
 * as owner only from that renew's answer; it renews every {@code renewEvery}
 * (at most a third of the TTL); it stops acting as owner on {@code lost} and at
 * its deadline (the last successful renew's send time + TTL − 1 % − 100 ms, on
 * {@link System#nanoTime()}), whatever happens to its requests meanwhile.
 *
 * <p>Its records: every {@link Ownership} window (from the answer that made it
 * owner to the first instant it no longer believed so: its deadline or the
 * {@code lost} answer), and every {@link Acknowledged} write (an acquire that
 * answered {@code granted} naming it, a renew that answered {@code granted}).
 */
final class RuleFollowingHolder implements AutoCloseable {

    /** One acknowledged write, as this holder was told it; {@code expiresAt} (write time + TTL) tells writes apart. */
    record Acknowledged(String key, String holder, long revision, String acquiredAt, String expiresAt,
                        long receivedNanos) {

        boolean sameWrite(Acknowledged other) {
            return key.equals(other.key) && holder.equals(other.holder) && acquiredAt.equals(other.acquiredAt)
                    && expiresAt.equals(other.expiresAt);
        }
    }

    /** A time this holder believed it owned the key, on System.nanoTime; {@code endNanos} is Long.MAX_VALUE while open. */
    record Ownership(String key, String holder, long firstFence, long startNanos, long endNanos) {
    }

    private static final long MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    final String key;
    final String holder;
    private final long ttlMillis;
    private final long renewEveryNanos;
    private final Duration requestTimeout;
    private final Connection connection;
    private final Thread thread;
    private volatile boolean stopped;
    /** The window open now, if any, for readers on other threads. */
    private volatile Ownership open;

    final List<Acknowledged> acknowledged = new CopyOnWriteArrayList<>();
    final List<Ownership> ownerships = new CopyOnWriteArrayList<>();

    // Only the holder's thread touches these.
    private boolean owning;
    private long fence;
    private long deadlineNanos;
    private long startNanos;
    private long firstFence;
    private long lastSentNanos;

    RuleFollowingHolder(String urls, String key, String holder, Duration ttl, Duration renewEvery) {
        if (renewEvery.toMillis() * 3 > ttl.toMillis()) {
            throw new IllegalArgumentException("the holder rules renew at least every ttl/3");
        }
        this.key = key;
        this.holder = holder;
        this.ttlMillis = ttl.toMillis();
        this.renewEveryNanos = renewEvery.toNanos();
        this.requestTimeout = Duration.ofMillis(Math.min(1000, renewEvery.toMillis() * 3));
        try {
            this.connection = Nats.connect(new Options.Builder().servers(urls.split(","))
                    .maxReconnects(-1).reconnectWait(Duration.ofMillis(100))
                    .errorListener(new ErrorListener() { }) // a dozen holders refused during every outage: not news
                    .build());
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
        this.thread = new Thread(this::run, "holder-" + holder);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        while (!stopped) {
            try {
                if (owning) {
                    keep();
                } else {
                    campaign();
                }
            } catch (InterruptedException interrupted) {
                return;
            }
        }
    }

    private void campaign() throws InterruptedException {
        JsonNode answer = call("acquire", "{\"key\":\"" + key + "\",\"holder\":\"" + holder + "\",\"ttl_ms\":"
                + ttlMillis + "}");
        if (answer != null && answer.path("granted").asBoolean() && holder.equals(answer.path("holder").asText())) {
            record(answer);
            // A grant may be an earlier write of ours whose TTL is almost spent: renew at once, own from its answer.
            renew(answer.path("revision").asLong());
            if (owning) {
                return;
            }
        }
        Thread.sleep(100 + ThreadLocalRandom.current().nextInt(100));
    }

    private void keep() throws InterruptedException {
        long now = System.nanoTime();
        long next = Math.min(deadlineNanos, lastSentNanos + renewEveryNanos);
        if (next > now) {
            TimeUnit.NANOSECONDS.sleep(next - now);
        }
        if (System.nanoTime() >= deadlineNanos) {
            stopOwning(deadlineNanos);
            return;
        }
        renew(fence);
    }

    private void renew(long revision) {
        long sent = System.nanoTime();
        lastSentNanos = sent;
        JsonNode answer = call("renew", "{\"key\":\"" + key + "\",\"holder\":\"" + holder + "\",\"revision\":"
                + revision + "}");
        long received = System.nanoTime();
        if (owning && received >= deadlineNanos) {
            stopOwning(deadlineNanos); // the rules stopped it at its deadline, whatever the answer says now
        }
        if (answer == null) {
            return; // a timeout: keep trying until the deadline
        }
        if (answer.path("granted").asBoolean()) {
            record(answer);
            fence = answer.path("revision").asLong();
            deadlineNanos = sent + TimeUnit.MILLISECONDS.toNanos(ttlMillis) - TimeUnit.MILLISECONDS.toNanos(ttlMillis) / 100
                    - MARGIN_NANOS;
            if (!owning && received < deadlineNanos) {
                owning = true;
                startNanos = received;
                firstFence = fence;
                open = new Ownership(key, holder, firstFence, startNanos, Long.MAX_VALUE);
            }
        } else if ("lost".equals(answer.path("kind").asText())) {
            if (owning) {
                stopOwning(received);
            }
        }
        // unavailable, internal: nothing learnt; the next tick retries
    }

    private void stopOwning(long atNanos) {
        owning = false;
        ownerships.add(new Ownership(key, holder, firstFence, startNanos, atNanos));
        open = null;
    }

    private void record(JsonNode answer) {
        acknowledged.add(new Acknowledged(key, holder, answer.path("revision").asLong(),
                answer.path("acquired_at").asText(), answer.path("expires_at").asText(), System.nanoTime()));
    }

    private JsonNode call(String operation, String body) {
        try {
            return connection.requestWithTimeout("api.leases." + operation, body.getBytes(StandardCharsets.UTF_8),
                    requestTimeout).thenApply(WireClient::parse).join();
        } catch (CompletionException | java.util.concurrent.CancellationException noAnswer) {
            return null;
        }
    }

    /** The windows so far, an open one (still owning) included with end Long.MAX_VALUE. */
    List<Ownership> ownershipsSoFar() {
        Ownership now = open;
        List<Ownership> all = new java.util.ArrayList<>(ownerships);
        if (now != null && !all.contains(new Ownership(key, holder, now.firstFence(), now.startNanos(), now.endNanos()))
                && all.stream().noneMatch(closed -> closed.startNanos() == now.startNanos())) {
            all.add(now);
        }
        return all;
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.interrupt();
        thread.join(5000);
        if (owning) {
            stopOwning(System.nanoTime());
        }
        connection.close();
    }
}
