package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.client.impl.NatsMessage;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * A NATS connection whose list requests the test answers page by page, in the order they were
 * asked (a request left unanswered is a page under way); change events never come. For
 * {@link SetSight} on a manual loop, with a real {@link io.dagnats.leases.holder.LeaseClient}.
 */
final class ScriptedListings {

    private static final Instant AT = Instant.parse("2026-12-04T12:00:00Z");

    /** One list request sent, and the reply the test gives it. */
    record Asked(ListRequest request, CompletableFuture<Message> reply) {
    }

    final List<Asked> asked = new ArrayList<>();
    final Connection connection = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {Connection.class}, (proxy, method, args) -> switch (method.getName()) {
                case "requestWithTimeout" -> {
                    CompletableFuture<Message> reply = new CompletableFuture<>();
                    asked.add(new Asked(Requests.list(((Message) args[0]).getData()), reply));
                    yield reply;
                }
                case "createDispatcher" -> inert(Dispatcher.class);
                case "getStatus" -> Connection.Status.CONNECTED;
                case "getConnectedUrl" -> "nats://scripted";
                default -> defaultOf(method.getReturnType());
            });

    /** The next unanswered request: answered with {@code leases} and, if not the last page, {@code next}. */
    ListRequest answer(Optional<String> next, io.dagnats.leases.domain.Lease... leases) {
        Asked pending = pending();
        pending.reply().complete(NatsMessage.builder().subject("reply")
                .data(Replies.list(List.of(leases), next)).build());
        return pending.request();
    }

    /** The next unanswered request: refused by dagnats with {@code kind}. */
    ListRequest refuse(ErrorKind kind) {
        Asked pending = pending();
        pending.reply().complete(NatsMessage.builder().subject("reply").data(Replies.error(kind, "scripted")).build());
        return pending.request();
    }

    /** The next unanswered request: no answer in time. */
    ListRequest timeOut() {
        Asked pending = pending();
        pending.reply().completeExceptionally(new TimeoutException("scripted: no answer in time"));
        return pending.request();
    }

    static io.dagnats.leases.domain.Lease held(String key, HolderId holder, long revision) {
        return new io.dagnats.leases.domain.Lease(new LeaseKey(key), holder, new Fence(revision), new Fence(revision),
                AT, AT, LeaseTtl.ofSeconds(3));
    }

    private Asked pending() {
        return asked.stream().filter(one -> !one.reply().isDone()).findFirst()
                .orElseThrow(() -> new AssertionError("no list request is waiting for its answer: " + asked));
    }

    private static Object inert(Class<?> type) {
        return Proxy.newProxyInstance(ScriptedListings.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> Subscription.class.equals(method.getReturnType()) ? inert(Subscription.class)
                        : method.getReturnType().isInterface() && method.getReturnType().isInstance(proxy) ? proxy
                        : defaultOf(method.getReturnType()));
    }

    private static Object defaultOf(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == int.class) {
            return 0;
        }
        return null;
    }
}
