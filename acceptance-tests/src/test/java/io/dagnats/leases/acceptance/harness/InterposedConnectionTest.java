package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The harness's interposed connection, on a real nats-server: what it drops, holds and loses, and nothing else. */
class InterposedConnectionTest {

    private NatsServerProcess nats;
    private Connection real;
    private Connection other;
    private InterposedConnection interposed;

    @BeforeEach
    void start() throws Exception {
        nats = NatsServerProcess.modern();
        real = Nats.connect(nats.url());
        other = Nats.connect(nats.url());
        interposed = InterposedConnection.around(real);
    }

    @AfterEach
    void stop() throws Exception {
        other.close();
        real.close();
        nats.close();
    }

    @Test
    void aDispatchersHandlersNeverSeeAChangeEventAndSeeEverythingElse() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        Dispatcher byHandler = interposed.connection().createDispatcher();
        byHandler.subscribe("dagnats.lease.changed.k", message -> seen.add(message.getSubject()));
        byHandler.subscribe("app.k", message -> seen.add(message.getSubject()));
        Dispatcher byDefault = interposed.connection()
                .createDispatcher(message -> seen.add("default " + message.getSubject()));
        assertTrue(byDefault.subscribe("dagnats.lease.changed.j") == byDefault, "a fluent call returns the wrapper");
        byDefault.subscribe("app.j");
        interposed.connection().flush(Duration.ofSeconds(5));

        for (String subject : List.of("dagnats.lease.changed.k", "app.k", "dagnats.lease.changed.j", "app.j")) {
            other.publish(subject, new byte[0]);
        }
        Polling.until(Duration.ofSeconds(5), "both other messages", () -> List.copyOf(seen), got -> got.size() >= 2);
        other.flush(Duration.ofSeconds(5));
        Polling.until(Duration.ofSeconds(5), "both events dropped", interposed::droppedEvents, dropped -> dropped == 2);

        assertEquals(List.of("app.k", "default app.j"), seen.stream().sorted().toList());
        interposed.connection().closeDispatcher(byHandler);
        assertFalse(byHandler.isActive(), "closing the wrapper closes the real dispatcher");
    }

    @Test
    void aHeldRequestIsSentOnlyOnTheReleaseAndALostOneNeverAtAll() throws Exception {
        AtomicInteger received = new AtomicInteger();
        other.createDispatcher(request -> {
            received.incrementAndGet();
            other.publish(request.getReplyTo(), request.getData());
        }).subscribe("echo");
        other.flush(Duration.ofSeconds(5));

        interposed.holdCalls();
        CompletableFuture<Message> held = interposed.connection()
                .requestWithTimeout(message("held"), Duration.ofSeconds(10));
        interposed.connection().flush(Duration.ofSeconds(5));
        assertFalse(held.isDone());
        assertEquals(0, received.get(), "nothing sent while held");
        interposed.releaseCalls();
        assertEquals("held", new String(held.get(5, TimeUnit.SECONDS).getData(), StandardCharsets.UTF_8));

        interposed.loseNext("echo");
        CompletableFuture<Message> lost = interposed.connection()
                .requestWithTimeout(message("lost"), Duration.ofSeconds(10));
        ExecutionException failed = assertThrows(ExecutionException.class, () -> lost.get(1, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, failed.getCause());
        Message next = interposed.connection().requestWithTimeout(message("next"), Duration.ofSeconds(5))
                .get(5, TimeUnit.SECONDS);

        assertEquals("next", new String(next.getData(), StandardCharsets.UTF_8), "only the next one is lost");
        assertEquals(2, received.get(), "the lost request never reached the server");
        assertEquals(1, interposed.lostCalls());
    }

    private static Message message(String body) {
        return NatsMessage.builder().subject("echo").data(body.getBytes(StandardCharsets.UTF_8)).build();
    }
}
