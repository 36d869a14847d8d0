package io.dagnats.leases.benchmarks;

import io.nats.client.Connection;
import io.nats.client.JetStream;
import io.nats.client.api.PublishAck;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Live leases for a benchmark to run among: 10-minute filler records written straight into the bucket. */
final class Filler {

    private Filler() {
    }

    /**
     * Brings the bucket from {@code live} to {@code target} filler leases ({@code filler-<n>}).
     *
     * @return how many filler leases there are now
     */
    static int fill(Connection connection, int live, int target) throws Exception {
        JetStream jetStream = connection.jetStream();
        List<CompletableFuture<PublishAck>> pending = new ArrayList<>();
        byte[] record = ("{\"holder\":\"filler\",\"acquired_at\":\"" + Instant.now() + "\",\"ttl_ms\":600000}")
                .getBytes(StandardCharsets.UTF_8);
        for (int i = live; i < target; i++) {
            Headers headers = new Headers();
            headers.put("Nats-TTL", "600s");
            pending.add(jetStream.publishAsync(NatsMessage.builder().subject("$KV.leases.filler-" + i)
                    .headers(headers).data(record).build()));
            if (pending.size() == 5_000) {
                CompletableFuture.allOf(pending.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
                pending.clear();
            }
        }
        CompletableFuture.allOf(pending.toArray(new CompletableFuture[0])).get(60, TimeUnit.SECONDS);
        return Math.max(live, target);
    }
}
