package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** Which keys a member's end frees: only those attached to a tenure that began before it, each once. */
class AttachedIndexTest {

    private static final LeaseKey MEMBER = new LeaseKey("set-member-a");
    private static final KnownLeases.Era ERA = new KnownLeases.Era(new LeaseStore.Identity("bucket-1", true), 0);

    private static AttachedRecord shard(String key, long revision, long memberTenure) {
        return new AttachedRecord(new LeaseKey(key), Claimant.of(new HolderId("a")), new Fence(revision),
                new Fence(revision), Instant.EPOCH, new Attachment(MEMBER, new Fence(memberTenure), Optional.empty()));
    }

    @Test
    void aMembersEndFreesTheKeysOfEarlierTenuresOnlyAndOnlyOnce() {
        AttachedIndex index = new AttachedIndex(ERA);
        index.walked();
        index.attached(shard("s1", 11, 10));
        index.attached(shard("s2", 12, 10));
        index.attached(shard("s3", 31, 30)); // a later tenure of the same member

        List<AttachedRecord> ended = index.endedBefore(MEMBER, 20);

        assertEquals(2, ended.size());
        assertTrue(index.endedBefore(MEMBER, 20).isEmpty(), "each key once");
        assertEquals(List.of(shard("s3", 31, 30)), index.endedBefore(MEMBER, 40));
    }

    @Test
    void aKeyWrittenAgainIsNoLongerAttached() {
        AttachedIndex index = new AttachedIndex(ERA);
        index.walked();
        index.attached(shard("s1", 11, 10));
        index.rewritten(new LeaseKey("s1"), 15);
        assertTrue(index.endedBefore(MEMBER, 20).isEmpty());
    }

    @Test
    void theStartsListingNeverReplacesWhatALaterEventShowed() {
        AttachedIndex index = new AttachedIndex(ERA);
        index.rewritten(new LeaseKey("s1"), 15); // detached at 15 while the walk ran
        index.listed(shard("s1", 11, 10), ERA); // the walk read it before
        index.listed(shard("s2", 12, 10), ERA);
        index.walked();
        assertEquals(List.of(shard("s2", 12, 10)), index.endedBefore(MEMBER, 20));
    }

    @Test
    void whatWasLearntInAnEarlierEraOfTheMemoryIsForgottenAndTheWalkOfAnEarlierOneAddsNothing() {
        AttachedIndex index = new AttachedIndex(ERA);
        index.attached(shard("s1", 11, 10));
        KnownLeases.Era forgot = new KnownLeases.Era(ERA.identity(), 1); // the store went back, say
        index.in(forgot);
        index.listed(shard("s2", 12, 10), ERA); // a page of a walk begun before
        index.walked();
        assertTrue(index.endedBefore(MEMBER, 20).isEmpty());
        assertEquals(forgot, index.era());
    }
}
