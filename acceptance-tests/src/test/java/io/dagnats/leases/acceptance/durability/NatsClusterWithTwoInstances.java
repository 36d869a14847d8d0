package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.History;
import io.dagnats.leases.acceptance.harness.NatsCluster;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.api.MessageInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A 3-node nats-server cluster, the bucket at 3 replicas, two dagnats instances in the queue
 * group and an observer of the stored revisions, for the cluster fault tests. A base class so that
 * the tests, split by the rule they prove, moved without being rewritten.
 */
abstract class NatsClusterWithTwoInstances {

    static final Duration TTL = Duration.ofSeconds(3);
    static final Duration RENEW_EVERY = Duration.ofMillis(250);

    NatsCluster cluster;
    final List<DagnatsServer> dagnats = new ArrayList<>();
    Connection observer;
    StoredRevisions stored;

    @BeforeEach
    void start() throws Exception {
        cluster = NatsCluster.start();
        for (int i = 0; i < 2; i++) {
            dagnats.add(DagnatsServer.start(Settings.fromEnvironment(Map.of(
                    "NATS_URL", cluster.urls(), "DAGNATS_LEASE_REPLICAS", "3"))));
        }
        dagnats.forEach(instance -> assertTrue(instance.status() instanceof BucketStatus.Ready, instance.status().describe()));
        observer = Nats.connect(new Options.Builder().servers(cluster.urls().split(",")).maxReconnects(-1)
                .reconnectWait(Duration.ofMillis(50)).build());
        stored = new StoredRevisions(observer);
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (stored != null) {
                stored.close();
            }
            if (observer != null) {
                observer.close();
            }
            for (DagnatsServer instance : dagnats) {
                instance.close();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    WireClient client() {
        return new WireClient(cluster.urls());
    }

    @FunctionalInterface
    interface Fault {
        /** @return what was hit, for the report */
        String inject(History history) throws Exception;
    }

    void faultDuringLoad(String scenario, Fault fault) throws Exception {
        faultDuringLoad(scenario, 4, fault);
    }

    /** @param keys how many keys the load keeps, each contended by two holders renewing every 250 ms */
    void faultDuringLoad(String scenario, int keys, Fault fault) throws Exception {
        History history = new History();
        String safety;
        try (LeaseWorkload load = new LeaseWorkload(history).start(cluster.urls(), keys, 2, TTL, RENEW_EVERY)
                .keep(cluster.urls(), 2, 3, TTL)) {
            Polling.until(Duration.ofSeconds(20), "steady renewals",
                    () -> history.answers().stream().filter(a -> a.outcome().equals("renewed")).count(),
                    renewed -> renewed >= 20);
            long faultAt = System.nanoTime();
            String target = fault.inject(history);
            long injectedAt = System.nanoTime();
            long resumedAt = Polling.until(Duration.ofSeconds(60), "writes after the fault",
                    () -> load.lastWriteAt.get(), lastWrite -> lastWrite > injectedAt);
            // Keep the load on a little past recovery so takeovers and retries play out.
            long settle = System.nanoTime() + TTL.toNanos();
            Polling.until(TTL.plusSeconds(5), "the load to run on", System::nanoTime, now -> now > settle);
            load.close();
            // Judged from what each keeper believed, with its own deadline: never two owners at once.
            OwnershipHistory ownership = load.ownership();
            safety = ownership.assertSafe();
            assertTrue(ownership.windows().stream().map(OwnershipHistory.Window::key).distinct().count() == 2,
                    "every kept key had an owner at some point: " + ownership.windows());

            Map<String, Long> outcomesDuring = new TreeMap<>(history.between(faultAt, resumedAt).stream()
                    .collect(Collectors.groupingBy(History.Answer::outcome,
                            Collectors.counting())));
            Reliability.report(scenario, "target " + target
                    + ", writes unavailable for " + (resumedAt - faultAt) / 1_000_000 + " ms"
                    + " (fault injection took " + (injectedAt - faultAt) / 1_000_000 + " ms)"
                    + ", answers meanwhile " + outcomesDuring + ", all answers " + history.outcomes()
                    + "; keepers: " + safety);
        }
        history.checkInvariants();
        assertFalse(history.outcomes().containsKey("internal"), history.outcomes().toString());
        List<StoredRevisions.Write> acknowledged = new ArrayList<>();
        Set<StoredRevisions.Write> observed = new HashSet<>();
        for (History.Answer answer : history.answers()) {
            StoredRevisions.Write write = new StoredRevisions.Write(answer.key(), answer.holder(), answer.revision());
            if (answer.acknowledgedWrite()) {
                acknowledged.add(write);
            } else if (answer.outcome().equals("held")) {
                observed.add(write);
            }
        }
        Polling.until(Duration.ofSeconds(30), "leader reads of every key", () -> acknowledged.stream()
                .map(StoredRevisions.Write::key).distinct().allMatch(key -> lastMessage(key) != null), read -> read);
        stored.checkAcknowledgedWritesKept(acknowledged, observed, this::lastMessage);
        stored.checkNoRevisionNamedTwoWrites();
    }

    MessageInfo lastMessage(String key) {
        try {
            return observer.jetStreamManagement().getLastMessage("KV_leases", "$KV.leases." + key);
        } catch (Exception notYet) {
            return null;
        }
    }
}
