package io.dagnats.leases.acceptance.durability;

import io.dagnats.leases.acceptance.harness.History;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.OwnershipLog;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.DagnatsException;
import io.dagnats.leases.protocol.Kinds;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load for the fault tests, of two kinds.
 *
 * <p>Contenders on keys {@code load-*} call acquire and renew on the wire and
 * record every answer in a {@link History}: the service's acknowledged writes,
 * for the lost-write check.
 *
 * <p>Keepers on keys {@code kept-*} are replicas using the holder library, each
 * on its own connection, whose own belief of ownership an {@link OwnershipLog}
 * records: {@link #ownership()} judges from those beliefs alone that no two of
 * them ever acted as owner of one key at once, however the fault played out.
 */
final class LeaseWorkload implements AutoCloseable {

    private final History history;
    private final List<Thread> threads = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private final List<LeaseHolder> keepers = new ArrayList<>();
    private final List<String> beliefs = OwnershipLog.lines();
    private final OwnershipLog ownership = OwnershipLog.inMemory("workload", beliefs);
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
                Connection connection = connect(urls);
                LeaseClient client = new LeaseClient(connection, Duration.ofSeconds(3),
                        OpenTelemetry.noop());
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

    /** Starts {@code replicas} holder-library replicas keeping each of {@code keys} keys. */
    LeaseWorkload keep(String urls, int keys, int replicas, Duration ttl) throws Exception {
        for (int k = 0; k < keys; k++) {
            for (int r = 0; r < replicas; r++) {
                Connection connection = connect(urls);
                LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix("keeper-" + k + "-" + r).build();
                keepers.add(holder);
                String key = "kept-" + k;
                ownership.keep(key, holder.id().value(), () -> holder.keep(key, ttl, OwnershipListener.NONE));
            }
        }
        return this;
    }

    /** What the keepers believed, as the checker sees it. */
    OwnershipHistory ownership() {
        return OwnershipHistory.fromLines(beliefs);
    }

    private Connection connect(String urls) throws Exception {
        Connection connection = Nats.connect(new Options.Builder().servers(urls.split(","))
                .maxReconnects(-1).reconnectWait(Duration.ofMillis(100)).build());
        connections.add(connection);
        return connection;
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
            } catch (CompletionException failed) {
                String kind = failed.getCause() instanceof DagnatsException dagnats ? Kinds.wireName(dagnats.kind()) : "error";
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

    /** Stops the load as a crash would: no releases, so the stream keeps the last acknowledged writes. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        ownership.close();
        for (Connection connection : connections) {
            connection.close();
        }
        for (LeaseHolder keeper : keepers) {
            keeper.close();
        }
    }
}
