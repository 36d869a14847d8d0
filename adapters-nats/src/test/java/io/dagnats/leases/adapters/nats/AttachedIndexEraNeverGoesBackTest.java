package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.application.KnownLeases;
import io.dagnats.leases.application.LeaseStore;
import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The attached index's era only moves forward. FreedEvents' start walk calls {@code index.in(era)} on every page
 * with the era captured when the walk began. When the memory moved on meanwhile (the store went
 * back, noticed by a request) and an event has already put the index in the new era, the walk's next
 * page must not put it back in the old one, which forgot everything learnt in the new era and
 * labelled what followed with an era free() never proposes from (freed events lost, a liveness
 * loss). Found by the s33 third review.
 */
class AttachedIndexEraNeverGoesBackTest {

    private static final LeaseKey MEMBER = new LeaseKey("set-member-a");
    private static final LeaseStore.Identity BUCKET = new LeaseStore.Identity("bucket-1", true);
    private static final KnownLeases.Era WALK_BEGAN = new KnownLeases.Era(BUCKET, 0);
    private static final KnownLeases.Era NOW = new KnownLeases.Era(BUCKET, 1);

    @Test
    void aWalkPageOfAnEarlierEraNeverPutsTheIndexBackInIt() {
        AttachedIndex index = new AttachedIndex(WALK_BEGAN);
        index.in(WALK_BEGAN); // page 1 of the start walk
        index.in(NOW); // the memory forgot (store went back); an event is heard in the new era
        index.attached(new AttachedRecord(new LeaseKey("s1"), Claimant.of(new HolderId("a")), new Fence(11),
                new Fence(11), Instant.EPOCH, new Attachment(MEMBER, new Fence(10), Optional.empty())));
        index.in(WALK_BEGAN); // page 2 of the walk, begun before
        index.walked();

        assertEquals(NOW, index.era(), "the era only moves forward");
        assertEquals(List.of("s1"), index.endedBefore(MEMBER, 20).stream().map(record -> record.key().value()).toList());
    }
}
