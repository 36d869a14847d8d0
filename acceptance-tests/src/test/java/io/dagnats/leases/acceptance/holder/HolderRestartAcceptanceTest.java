package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.OwnershipHistory;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.ReplicaProcesses;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A replica killed with {@code kill -9} and restarted at once with its own fixed
 * holder id, as one id per replica is usually deployed, while another replica
 * waits for the key. The restarted process's acquire is idempotent: it returns the
 * dead process's write, whose TTL started before this process existed. Whatever
 * the moment of the restart, the two replicas' own records of when they believed
 * they owned the key never overlap.
 */
class HolderRestartAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(3);

    /** When, in the dead process's last lease, the restarted process asks for the key. */
    enum Restart {
        AT_ONCE(null),
        AFTER_MOST_OF_THE_TTL(Duration.ofMillis(1_000)),
        JUST_BEFORE_THE_LEASE_RUNS_OUT(Duration.ofMillis(250));

        /** How long before the old lease's expiry; null for at once. */
        final Duration beforeExpiry;

        Restart(Duration beforeExpiry) {
            this.beforeExpiry = beforeExpiry;
        }
    }

    @ParameterizedTest
    @EnumSource(Restart.class)
    void aReplicaRestartedWithItsOwnIdNeverOwnsTogetherWithTheNextOwner(Restart restart) throws Exception {
        String key = "restart-" + restart.name().toLowerCase().replace('_', '-');
        String first = "first-" + restart.ordinal();
        String second = "second-" + restart.ordinal();
        try (ReplicaProcesses replicas = new ReplicaProcesses(service.nats.url())) {
            Process original = replicas.start(first, key, TTL, "exact");
            Polling.until(Duration.ofSeconds(30), first + " to own " + key, () -> client.owner(key),
                    reply -> first.equals(reply.path("holder").asText()));
            start(replicas, second, key);
            Subscription firstReady = client.connection().subscribe("test.replica." + first);
            replicas.start(first, key, TTL, "exact", "wait");
            awaitReady(firstReady, first);

            ReplicaProcesses.kill(original);
            JsonNode dead = client.owner(key);
            Instant expiry = Instant.parse(dead.path("expires_at").asText());
            if (restart.beforeExpiry != null) {
                // The fault's schedule: the restart lands at this point of the dead process's lease.
                long wait = Duration.between(Instant.now(), expiry.minus(restart.beforeExpiry)).toMillis();
                if (wait > 0) {
                    Thread.sleep(wait);
                }
            }
            client.connection().publish("test.go." + first, new byte[0]);

            // Long enough for the old lease to expire, the key to change hands if it will, and a renew or two.
            Instant settled = expiry.plus(TTL.multipliedBy(2));
            Polling.until(Duration.ofSeconds(30), "the key to be held after " + settled,
                    () -> client.owner(key), reply -> reply.path("held").asBoolean() && Instant.now().isAfter(settled));

            OwnershipHistory history = replicas.history();
            String summary;
            try {
                summary = history.assertSafe();
            } catch (AssertionError unsafe) {
                throw new AssertionError(unsafe.getMessage() + "\nwindows: " + history.windows(), unsafe);
            }
            assertTrue(history.windows().size() >= 2, "the original and a later owner: " + history.windows());
            Reliability.report("replica restarted with its own id, " + restart.name().toLowerCase().replace('_', ' ')
                    + " (TTL " + TTL.toMillis() + " ms)", summary);
        }
    }

    private static void start(ReplicaProcesses replicas, String holder, String key) throws InterruptedException {
        Subscription ready = client.connection().subscribe("test.replica." + holder);
        replicas.start(holder, key, TTL, "exact", "wait");
        awaitReady(ready, holder);
        client.connection().publish("test.go." + holder, new byte[0]);
    }

    private static void awaitReady(Subscription subscription, String holder) throws InterruptedException {
        Message ready = subscription.nextMessage(Duration.ofSeconds(30));
        if (ready == null || !"ready".equals(new String(ready.getData(), StandardCharsets.UTF_8))) {
            throw new AssertionError(holder + " did not start");
        }
        subscription.unsubscribe();
    }
}
