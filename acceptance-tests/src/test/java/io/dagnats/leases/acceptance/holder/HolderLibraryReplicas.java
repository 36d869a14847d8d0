package io.dagnats.leases.acceptance.holder;

import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.OwnershipLog;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.ToldListener;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * One nats-server, one dagnats and replicas of the holder library on them, each replica's beliefs
 * logged and checked for overlaps after every test. A base class so that the tests, split by the rule they prove, moved without being rewritten.
 */
abstract class HolderLibraryReplicas {

    static final Duration TTL = Duration.ofSeconds(2);

    ServiceFixture service;
    final List<AutoCloseable> cleanup = new ArrayList<>();
    /** Every replica's own record of when it believed it led; checked after each test. */
    final List<String> beliefs = OwnershipLog.lines();
    OwnershipLog ownership;

    @BeforeEach
    void start() {
        service = ServiceFixture.start();
        ownership = OwnershipLog.inMemory("in-process", beliefs);
    }

    @AfterEach
    void stop() throws Exception {
        ownership.close();
        // Whatever the scenario, no two replicas ever believed they led at once.
        OwnershipHistory.fromLines(beliefs).assertSafe();
        Collections.reverse(cleanup);
        for (AutoCloseable closeable : cleanup) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // a replica the test killed may fail to close cleanly
            }
        }
        service.close();
    }

    /** One replica: its own connection, like its own process. */
    final class Replica {
        final Connection connection;
        final LeaseHolder holder;
        final KeptLease lease;
        final ToldListener told = new ToldListener();
        final List<String> events = told.events();

        Replica(String prefix, String key, ScheduledExecutorService scheduler) throws Exception {
            connection = Nats.connect(service.nats.url());
            cleanup.add(connection::close);
            LeaseHolder.Builder builder = LeaseHolder.builder(connection).holderPrefix(prefix)
                    .forwardHandler((tenure, payload) ->
                            (holderName() + "@" + tenure.fence() + ":" + new String(payload, StandardCharsets.UTF_8))
                                    .getBytes(StandardCharsets.UTF_8));
            if (scheduler != null) {
                builder.scheduler(scheduler);
            }
            holder = builder.build();
            cleanup.add(holder);
            lease = ownership.keep(key, holder.id().value(), () -> holder.keep(key, TTL, told));
        }

        String holderName() {
            return holder.id().value();
        }
    }

    List<Replica> replicas(int count, String key) throws Exception {
        List<Replica> replicas = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            replicas.add(new Replica("replica" + i, key, null));
        }
        return replicas;
    }

    static List<Replica> owners(List<Replica> replicas) {
        return replicas.stream().filter(replica -> replica.lease.isOwner()).toList();
    }
}
