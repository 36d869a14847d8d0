package io.dagnats.leases.acceptance;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.Answers;
import io.dagnats.leases.holder.DagnatsException;
import io.dagnats.leases.holder.LeaseClient;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Contenders that take and renew leases the way the holder rules say, record
 * every answer in a {@link History}, and write to each key's fenced sink with
 * the fence they believe they hold.
 */
final class LeaseWorkload implements AutoCloseable {

    private final History history;
    private final List<Thread> threads = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    /** System.nanoTime of the latest acknowledged write. */
    final AtomicLong lastWriteAt = new AtomicLong(System.nanoTime());

    LeaseWorkload(History history) {
        this.history = history;
    }

    /** Starts {@code contenders} holders for each of {@code keys} keys. */
    LeaseWorkload start(String urls, int keys, int contenders, Duration ttl, Duration renewEvery) throws Exception {
        for (int k = 0; k < keys; k++) {
            for (int c = 0; c < contenders; c++) {
                Connection connection = Nats.connect(new Options.Builder().servers(urls.split(","))
                        .maxReconnects(-1).reconnectWait(Duration.ofMillis(100)).build());
                connections.add(connection);
                LeaseClient client = new LeaseClient(connection, Duration.ofSeconds(3),
                        io.opentelemetry.api.OpenTelemetry.noop());
                String key = "load-" + k;
                String holder = "holder-" + k + "-" + c;
                Thread thread = new Thread(() -> contend(client, key, holder, ttl, renewEvery), holder);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
        }
        return this;
    }

    private void contend(LeaseClient client, String keyName, String holderName, Duration ttl, Duration renewEvery) {
        LeaseKey key = new LeaseKey(keyName);
        HolderId holder = new HolderId(holderName);
        LeaseTtl leaseTtl = new LeaseTtl(ttl.toMillis());
        Fence fence = null;
        while (running.get()) {
            try {
                if (fence == null) {
                    Answers.Acquire answer = client.acquire(key, holder, leaseTtl).join();
                    boolean granted = answer instanceof Answers.Acquire.Granted;
                    history.record(keyName, granted ? holderName : answer.lease().holder().value(), "acquire",
                            granted ? "granted" : "held", answer.lease().revision().revision());
                    if (granted) {
                        fence = answer.lease().revision();
                        lastWriteAt.set(System.nanoTime());
                    }
                } else {
                    Answers.Renew answer = client.renew(key, holder, fence, Optional.empty()).join();
                    if (answer instanceof Answers.Renew.Renewed renewed) {
                        fence = renewed.lease().revision();
                        history.record(keyName, holderName, "renew", "renewed", fence.revision());
                        lastWriteAt.set(System.nanoTime());
                    } else {
                        history.record(keyName, holderName, "renew", "lost", fence.revision());
                        fence = null;
                    }
                }
                if (fence != null) {
                    history.sink(keyName).write(fence.revision(), holderName, "work");
                }
            } catch (CompletionException failed) {
                String kind = failed.getCause() instanceof DagnatsException dagnats ? dagnats.kind() : "error";
                if (!kind.equals("unavailable")) {
                    System.err.println(holderName + ": " + failed.getCause());
                }
                history.record(keyName, holderName, fence == null ? "acquire" : "renew", kind, 0);
            }
            pause(fence == null ? renewEvery.dividedBy(2) : renewEvery);
        }
    }

    private void pause(Duration duration) {
        // The renew cadence of a holder, not a wait for a condition.
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            running.set(false);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        for (Connection connection : connections) {
            connection.close();
        }
    }
}
