package io.dagnats.leases.benchmarks;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/**
 * The floor jnats sets under a service request: a process that does only what
 * the service's messages do, and none of its work. It takes a request on
 * {@value #SUBJECT} (a queue group, on a dispatcher, as the service's endpoints
 * are), sends its body and headers on to the subject named in the
 * {@value #TO} header as a request of its own (a future on jnats' request
 * inbox, as the service's JetStream requests and owner hops are), and publishes
 * the answer's body to the caller's reply subject from the thread that
 * completed the future. Same messages, same jnats threads and hand-offs as a
 * renew (the compare-and-set), an acquire (the create), an owner read (the
 * leader read) or a forward to a remembered owner (the owner hop); no decoding,
 * no lease rules, no encoding.
 *
 * <p>{@code scripts/bench.sh} starts it as a process of its own, with the
 * service's heap, so {@link LeaseBenchmark} can set its CPU per request beside
 * the service's: what the service costs above it is its own code; what the
 * relay costs is jnats' (threads, socket calls, wake-ups), which no code in the
 * service can remove.
 */
public final class JnatsRelay {

    /** Where the relay takes requests. */
    static final String SUBJECT = "bench.relay";
    /**
     * Where the relay takes a handover's messages ({@link HandoverFloor}): the subject in
     * {@value #TO} asked (the successor's check) while the subject in {@value #READ} is asked with
     * the request's body (the leader read); with both answers, the write in {@value #WRITE}'s
     * subject, compare-and-set on {@value #EXPECT}, sent as a request (its acknowledgment), whose
     * answer is the caller's.
     */
    static final String HANDOVER_SUBJECT = "bench.relay.handover";
    static final String READ = "Relay-Read";
    static final String WRITE = "Relay-Write";
    static final String EXPECT = "Relay-Expect";
    /** The header that names where a request is relayed to; every other header goes on with it. */
    static final String TO = "Relay-To";

    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final byte[] FAILED = "relay: no answer".getBytes(StandardCharsets.US_ASCII);

    private JnatsRelay() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        Connection connection = Nats.connect(Options.builder().server(url).connectionName("jnats-relay")
                .reportNoResponders().build());
        Dispatcher dispatcher = connection.createDispatcher(request -> relay(connection, request));
        dispatcher.subscribe(SUBJECT, "bench-relay");
        dispatcher.subscribe(HANDOVER_SUBJECT, "bench-relay", request -> handover(connection, request));
        connection.flush(TIMEOUT);
        System.out.println("relaying " + SUBJECT + " on " + url);
        new CountDownLatch(1).await(); // until the process is stopped
    }

    /** A handover's messages and nothing else: the read and the check at once, then the write. */
    private static void handover(Connection connection, Message request) {
        Headers in = request.getHeaders();
        CompletableFuture<Message> read = connection.requestWithTimeout(NatsMessage.builder()
                .subject(in.getFirst(READ)).data(request.getData()).build(), TIMEOUT);
        CompletableFuture<Message> check = connection.requestWithTimeout(NatsMessage.builder()
                .subject(in.getFirst(TO)).data(request.getData()).build(), TIMEOUT);
        read.thenCombine(check, (leader, yes) -> yes)
                .thenCompose(yes -> connection.requestWithTimeout(NatsMessage.builder().subject(in.getFirst(WRITE))
                        .headers(new Headers().put("Nats-Expected-Last-Subject-Sequence", in.getFirst(EXPECT))
                                .put("Nats-TTL", "15s"))
                        .data(yes.getData()).build(), TIMEOUT))
                .whenComplete((ack, failure) -> connection.publish(request.getReplyTo(),
                        failure == null ? ack.getData() : FAILED));
    }

    private static void relay(Connection connection, Message request) {
        Headers in = request.getHeaders();
        String to = in.getFirst(TO);
        Headers out = new Headers();
        for (String name : in.keySet()) {
            if (!name.equals(TO)) {
                out.put(name, in.get(name));
            }
        }
        connection.requestWithTimeout(NatsMessage.builder().subject(to).headers(out.isEmpty() ? null : out)
                        .data(request.getData()).build(), TIMEOUT)
                .whenComplete((answer, failure) -> connection.publish(request.getReplyTo(),
                        failure == null ? answer.getData() : FAILED));
    }
}
