package io.dagnats.leases.benchmarks;

import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.JetStreamManagement;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.api.Republish;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The floor under a planned handover's gap: the messages its rules cannot do without, sent by bare
 * jnats with no work at all, each run after the same half second of idle the handover meets. The
 * old owner's request reaches a relay process ({@link JnatsRelay}, standing for dagnats), which asks
 * the successor (a responder that answers at once) while it reads the key through the stream's
 * leader, then writes the key with a compare-and-set and the server republishes the write to the
 * successor. Timed from the old owner's send to the successor's receipt of the republished write,
 * both in this process on connections of their own. What a handover costs above this is dagnats'
 * and the holder library's own: the old owner's drain, the rules, the threads between them.
 */
final class HandoverFloor {

    private static final String STREAM = "BENCH_FLOOR";
    private static final String KEY_SUBJECT = "bench.floor.kv.key";
    private static final String CHANGED = "bench.floor.changed.key";
    private static final String CHECK = "bench.floor.check";
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    /**
     * Unmeasured runs first, back to back, then as many as are measured after the pause: the relay's
     * handover path compiled, as the service's paths are by the renews before the gaps.
     */
    private static final int WARM_UP_RUNS = 2000;

    private HandoverFloor() {
    }

    /** {@code runs} handovers' messages, each {@code idleMillis} after the last; each gap in nanoseconds. */
    static List<Long> gaps(String url, int runs, long idleMillis) throws Exception {
        try (Connection owner = Nats.connect(url); Connection successor = Nats.connect(url)) {
            JetStreamManagement streams = owner.jetStreamManagement();
            try {
                streams.deleteStream(STREAM);
            } catch (Exception none) {
                // first run on this server
            }
            streams.addStream(StreamConfiguration.builder().name(STREAM).subjects("bench.floor.kv.>")
                    .storageType(StorageType.File).maxMessagesPerSubject(1).allowMessageTtl()
                    .republish(Republish.builder().source("bench.floor.kv.>").destination("bench.floor.changed.>")
                            .build())
                    .build());
            BlockingQueue<Long> received = new LinkedBlockingQueue<>();
            Dispatcher side = successor.createDispatcher();
            side.subscribe(CHECK, ask -> successor.publish(ask.getReplyTo(), "yes".getBytes(StandardCharsets.US_ASCII)));
            side.subscribe(CHANGED, event -> received.add(System.nanoTime()));
            successor.flush(TIMEOUT);
            long expect = owner.jetStream().publish(KEY_SUBJECT, "first".getBytes(StandardCharsets.US_ASCII)).getSeqno();
            take(received);
            byte[] read = ("{\"last_by_subj\":\"" + KEY_SUBJECT + "\"}").getBytes(StandardCharsets.US_ASCII);
            List<Long> gaps = new ArrayList<>();
            int warmUp = WARM_UP_RUNS + runs;
            for (int run = 0; run < warmUp + runs; run++) {
                if (run >= WARM_UP_RUNS) {
                    Thread.sleep(idleMillis); // a benchmark's pause: the idle a handover starts from
                }
                Headers headers = new Headers().put(JnatsRelay.TO, CHECK)
                        .put(JnatsRelay.READ, "$JS.API.STREAM.MSG.GET." + STREAM)
                        .put(JnatsRelay.WRITE, KEY_SUBJECT).put(JnatsRelay.EXPECT, Long.toString(expect));
                long sent = System.nanoTime();
                Message ack = owner.request(NatsMessage.builder().subject(JnatsRelay.HANDOVER_SUBJECT).headers(headers)
                        .data(read).build(), TIMEOUT);
                long gap = take(received) - sent;
                expect = sequenceOf(ack);
                if (run >= warmUp) {
                    gaps.add(gap);
                }
            }
            streams.deleteStream(STREAM);
            return gaps;
        }
    }

    private static long take(BlockingQueue<Long> received) throws InterruptedException {
        Long at = received.poll(10, TimeUnit.SECONDS);
        if (at == null) {
            throw new IllegalStateException("the floor's write was not republished within 10 s");
        }
        return at;
    }

    /** The stream sequence in a publish acknowledgment ({@code {"stream":...,"seq":N}}). */
    private static long sequenceOf(Message ack) {
        String body = new String(ack.getData(), StandardCharsets.UTF_8);
        int at = body.indexOf("\"seq\":");
        if (ack.isStatusMessage() || at < 0) {
            throw new IllegalStateException("the floor's write failed: " + body);
        }
        int end = at + 6;
        while (end < body.length() && Character.isDigit(body.charAt(end))) {
            end++;
        }
        return Long.parseLong(body.substring(at + 6, end));
    }
}
