package io.dagnats.leases.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** A census walks the whole listing and counts each key and each holder once. */
class LeaseCensusTest {

    private final List<Long> asked = new ArrayList<>();

    @Test
    void countsEveryKeyOnceAndEveryHolderOnceAcrossPages() {
        List<LeaseListing.Page> pages = List.of(
                new LeaseListing.Page(List.of(lease("a", "alice", 1), lease("b", "bob", 2)), OptionalLong.of(3)),
                new LeaseListing.Page(List.of(), OptionalLong.of(7)),
                // "a" renewed during the walk comes again under its new revision; "c" changed hands.
                new LeaseListing.Page(List.of(lease("c", "carol", 8), lease("a", "alice", 9), lease("c", "bob", 10)),
                        OptionalLong.empty()));
        LeaseListing listing = (prefix, from, limit) -> {
            assertEquals(KeyPrefix.EVERY_NAMESPACE, prefix);
            asked.add(from);
            return CompletableFuture.completedFuture(pages.get(asked.size() - 1));
        };

        LeaseCensus.Count count = new LeaseCensus(listing).take().toCompletableFuture().join();

        assertEquals(new LeaseCensus.Count(3, 2), count);
        assertEquals(List.of(0L, 3L, 7L), asked);
    }

    @Test
    void aPageThatFailsFailsTheCensus() {
        LeaseListing listing = (prefix, from, limit) -> CompletableFuture.failedFuture(
                new LeaseFailure(ErrorKind.UNAVAILABLE, "JetStream did not answer the listing in time"));

        CompletionException failed = assertThrows(CompletionException.class,
                () -> new LeaseCensus(listing).take().toCompletableFuture().join());
        assertInstanceOf(LeaseFailure.class, failed.getCause());
    }

    private static Lease lease(String key, String holder, long revision) {
        return new Lease(new LeaseKey(key), new HolderId(holder), new Fence(revision), new Fence(revision),
                Instant.EPOCH, Instant.EPOCH, new LeaseTtl(10_000));
    }
}
