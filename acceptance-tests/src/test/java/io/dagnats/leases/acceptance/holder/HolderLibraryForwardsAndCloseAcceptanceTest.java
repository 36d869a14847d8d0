package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.protocol.Answers;
import io.nats.client.Nats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The holder library's owner serves forwards across its renewals under its current fence, and
 * closing the holder releases its lease at once.
 */
class HolderLibraryForwardsAndCloseAcceptanceTest extends HolderLibraryReplicas {

    @Test
    void forwardsReachTheOwnerAcrossRenewalsWithItsCurrentFence() throws Exception {
        Replica owner = new Replica("owner", "fwd-key", null);
        Polling.until(Duration.ofSeconds(10), "ownership", owner.lease::isOwner, isOwner -> isOwner);
        long start = owner.lease.tenure().orElseThrow().start().revision();
        Polling.until(TTL.plusSeconds(2), "a renewal", () -> owner.lease.fence().orElseThrow().revision(),
                fence -> fence > start);
        LeaseHolder caller = LeaseHolder.builder(Nats.connect(service.nats.url())).holderPrefix("caller").build();
        cleanup.add(caller);

        Answers.Forward forwarded = caller.client()
                .forward(new LeaseKey("fwd-key"), "ping".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(2)).join();

        Answers.Forward.Answered answered = assertInstanceOf(Answers.Forward.Answered.class, forwarded);
        assertEquals(owner.holderName(), answered.holder().value());
        assertTrue(answered.revision().revision() > start);
        assertEquals(owner.holderName() + "@" + answered.revision() + ":ping",
                new String(answered.reply(), StandardCharsets.UTF_8));
    }

    @Test
    void closingTheHolderReleasesTheLeaseAtOnce() throws Exception {
        List<Replica> replicas = replicas(2, "handover");
        Replica first = Polling.until(Duration.ofSeconds(10), "a leader",
                () -> owners(replicas), owners -> owners.size() == 1).get(0);
        Replica second = replicas.get(0) == first ? replicas.get(1) : replicas.get(0);

        first.holder.close();

        assertEquals("stopped:RELEASED", first.events.get(first.events.size() - 1));
        // Released, not expired: the change event wakes the other replica well before a TTL.
        Polling.until(TTL, "the second replica to lead", second.lease::isOwner, owner -> owner);
    }
}
