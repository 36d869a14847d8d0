package io.dagnats.leases.acceptance.handover;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A candidate's answer outliving its process: the answer a real candidate gave on
 * {@code dagnats.lease.candidates.<key>}, replayed after the process was kill -9'd (as an answer in
 * flight when it died would arrive), with the version made the most preferred. The owner then picks
 * a successor that is gone; only the targeted check dagnats makes before writing can tell.
 */
final class GhostCandidate implements AutoCloseable {

    private final Connection connection;
    private final Dispatcher dispatcher;

    private GhostCandidate(Connection connection, Dispatcher dispatcher) {
        this.connection = connection;
        this.dispatcher = dispatcher;
    }

    /** What the candidate whose holder id starts with {@code prefix} answers now. */
    static String answerOf(Connection connection, String key, String prefix) throws InterruptedException {
        long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() - giveUp < 0) {
            String inbox = connection.createInbox();
            Subscription answers = connection.subscribe(inbox);
            connection.publish("dagnats.lease.candidates." + key, inbox, new byte[0]);
            Optional<String> found = Optional.empty();
            Message answer;
            while (found.isEmpty() && (answer = answers.nextMessage(Duration.ofMillis(300))) != null) {
                String text = new String(answer.getData(), StandardCharsets.UTF_8);
                if (text.contains("\"holder\":\"" + prefix)) {
                    found = Optional.of(text);
                }
            }
            answers.unsubscribe();
            if (found.isPresent()) {
                return found.get();
            }
        }
        throw new AssertionError("no candidate " + prefix + "* answered for " + key);
    }

    /** Answers every ask of {@code key}'s candidates with {@code answer}, its version made "0.0.1". */
    static GhostCandidate replaying(Connection connection, String key, String answer) {
        byte[] ghost = answer.replaceAll("\"version\":\"[^\"]*\"", "\"version\":\"0.0.1\"")
                .replaceAll("\"waited_ms\":\\d+", "\"waited_ms\":60000").getBytes(StandardCharsets.UTF_8);
        Dispatcher dispatcher = connection.createDispatcher(ask -> {
            if (ask.getReplyTo() != null) {
                connection.publish(ask.getReplyTo(), ghost);
            }
        });
        dispatcher.subscribe("dagnats.lease.candidates." + key);
        return new GhostCandidate(connection, dispatcher);
    }

    @Override
    public void close() {
        connection.closeDispatcher(dispatcher);
    }
}
