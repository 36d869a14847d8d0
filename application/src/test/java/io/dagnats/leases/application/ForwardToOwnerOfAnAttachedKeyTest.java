package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.dagnats.leases.domain.Acquisition;
import io.dagnats.leases.domain.Attaching;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.RevokeReason;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An attached key lives by its member lease (ADR-043), which the memory of this key cannot show: a
 * forward to it is routed from a leader read, never from memory.
 */
class ForwardToOwnerOfAnAttachedKeyTest extends ForwardToOwnerFixture {

    private static final LeaseKey MEMBER = new LeaseKey("member-alice");

    private final LeaseWriter writer = new LeaseWriter(store, known, clock);
    private final AttachedKeys attached = new AttachedKeys(writer);
    private final RevokeLease revoke = new RevokeLease(writer);

    @Test
    void aKeyWhoseMemberWasRevokedHereHasNoOwnerAndItsOldHolderIsNotAsked() {
        Lease member = assertInstanceOf(Acquisition.Granted.class, new AcquireLease(writer)
                .execute(new AcquireLease.Command(MEMBER, new HolderId("alice"), TTL)).toCompletableFuture().join())
                .lease();
        Claimant alice = new Claimant(new HolderId("alice"), Optional.empty());
        assertInstanceOf(Attaching.Granted.class, attached.attach(new AttachedKeys.Attach(KEY, alice,
                new Attachment(MEMBER, member.tenure(), Optional.empty()))).toCompletableFuture().join());

        revoke.execute(new RevokeLease.Command(MEMBER, new RevokeReason("member gone"), Optional.empty(),
                Optional.empty())).toCompletableFuture().join();
        inbox.script.add(() -> new OwnerInbox.Delivery.Replied(new byte[] {9}));

        assertInstanceOf(ForwardToOwner.Outcome.NoOwner.class, forward(remembering));
        assertEquals(List.of(), inbox.asked, "the holder of a key its member no longer keeps is not asked");
    }
}
