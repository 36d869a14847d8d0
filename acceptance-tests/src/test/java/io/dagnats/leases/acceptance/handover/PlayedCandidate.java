package io.dagnats.leases.acceptance.handover;

import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A candidate played by plain jnats subscriptions, as the wire design has a holder answer: on
 * {@code dagnats.lease.candidates.<key>} with its object, and on
 * {@code dagnats.lease.candidate.<holder>.<key>} with its object only when asked for its own
 * incarnation (otherwise an empty body with {@code Dagnats-Lease-Reject: stale}). It counts the
 * targeted checks it received, so a test can show that nobody was asked, and keeps the ids of the
 * checks it said yes to and the messages on its check subject that want no reply (dagnats' grants,
 * ADR-046).
 */
final class PlayedCandidate implements AutoCloseable {

    private final Connection connection;
    private final Dispatcher dispatcher;
    private final String key;
    private final String holder;
    private final String incarnation;
    private final AtomicInteger checks = new AtomicInteger();
    private final BlockingQueue<String> yeses = new LinkedBlockingQueue<>();
    private final BlockingQueue<Message> grants = new LinkedBlockingQueue<>();
    private volatile Runnable beforeYes = () -> {
    };

    PlayedCandidate(Connection connection, String key, String holder, String incarnation)
            throws TimeoutException, InterruptedException {
        this.connection = connection;
        this.key = key;
        this.holder = holder;
        this.incarnation = incarnation;
        this.dispatcher = connection.createDispatcher();
        dispatcher.subscribe("dagnats.lease.candidates." + key, this::gathered);
        dispatcher.subscribe("dagnats.lease.candidate." + holder + "." + key, this::checked);
        connection.flush(Duration.ofSeconds(5));
    }

    String answer() {
        return WireClient.object().put("key", key).put("holder", holder).put("incarnation", incarnation)
                .put("priority", 5).put("version", "1.4.0").put("waited_ms", 1200).put("state", "waiting").toString();
    }

    int checks() {
        return checks.get();
    }

    private void gathered(Message request) {
        connection.publish(request.getReplyTo(), answer().getBytes(StandardCharsets.UTF_8));
    }

    /** Runs {@code step} on each check it will say yes to, just before the yes is sent. */
    void beforeYes(Runnable step) {
        beforeYes = step;
    }

    /** The check id of the next yes it gave, waiting up to {@code within}; null if none. */
    String nextYes(Duration within) throws InterruptedException {
        return yeses.poll(within.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** The next message on its check subject that wanted no reply, waiting up to {@code within}; null if none. */
    Message nextGrant(Duration within) throws InterruptedException {
        return grants.poll(within.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    private void checked(Message request) {
        if (request.getReplyTo() == null) {
            grants.add(request);
            return;
        }
        checks.incrementAndGet();
        com.fasterxml.jackson.databind.JsonNode check = WireClient.json(new String(request.getData(), StandardCharsets.UTF_8));
        String asked = check.path("incarnation").asText();
        if (asked.equals(incarnation)) {
            beforeYes.run();
            yeses.add(check.path("check").asText());
            connection.publish(request.getReplyTo(), answer().getBytes(StandardCharsets.UTF_8));
        } else {
            connection.publish(request.getReplyTo(), new Headers().put("Dagnats-Lease-Reject", "stale"), new byte[0]);
        }
    }

    @Override
    public void close() {
        connection.closeDispatcher(dispatcher);
    }
}
