package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ListingWalkTest {

    private static LeaseView lease(String key, long revision) {
        Instant now = Instant.parse("2026-11-30T12:00:00Z");
        return new LeaseView(new LeaseKey(key), new HolderId("h"), new Fence(revision), now, now.plusSeconds(15),
                LeaseTtl.ofSeconds(15));
    }

    private static final Map<Optional<String>, Answers.Listing> THREE_PAGES = Map.of(
            Optional.empty(), new Answers.Listing(List.of(lease("b", 10), lease("a", 11)), Optional.of("p2")),
            Optional.of("p2"), new Answers.Listing(List.of(), Optional.of("p3")),
            Optional.of("p3"), new Answers.Listing(List.of(lease("c", 12), lease("b", 13)), Optional.empty()));

    @Test
    void walksEveryPageSortsByKeyAndKeepsTheLaterOfTwoSightings() {
        List<ListRequest> asked = new ArrayList<>();

        List<LeaseView> leases = ListingWalk.walk(request -> {
            asked.add(request);
            return THREE_PAGES.get(request.cursor());
        }, new KeyPrefix("x"), 2);

        assertEquals(List.of("a", "b", "c"), leases.stream().map(lease -> lease.key().value()).toList());
        assertEquals(new Fence(13), leases.get(1).revision());
        assertEquals(List.of(Optional.empty(), Optional.of("p2"), Optional.of("p3")),
                asked.stream().map(ListRequest::cursor).toList());
        assertEquals(List.of("x", "x", "x"), asked.stream().map(request -> request.prefix().value()).toList());
        assertEquals(List.of(2, 2, 2), asked.stream().map(ListRequest::pageSize).toList());
    }

    @Test
    void anAsynchronousWalkSeesWhatTheSynchronousOneSees() {
        List<LeaseView> leases = ListingWalk.walkAsync(
                request -> CompletableFuture.completedFuture(THREE_PAGES.get(request.cursor())),
                new KeyPrefix("x"), 2).join();

        assertEquals(ListingWalk.walk(request -> THREE_PAGES.get(request.cursor()), new KeyPrefix("x"), 2), leases);
    }

    @Test
    void aFenceAboveTheSignedRangeIsTheLaterSightingComparedUnsigned() {
        long above = Long.MIN_VALUE + 5; // 2^63 + 5, negative as a signed long
        List<LeaseView> leases = ListingWalk.walk(request -> request.cursor().isEmpty()
                ? new Answers.Listing(List.of(lease("k", above)), Optional.of("p2"))
                : new Answers.Listing(List.of(lease("k", 7)), Optional.empty()), KeyPrefix.ALL, 1);

        assertEquals(List.of(new Fence(above)), leases.stream().map(LeaseView::revision).toList());
    }

    @Test
    void aCursorThatDoesNotMoveStopsTheWalk() {
        DagnatsException failure = assertThrows(DagnatsException.class, () -> ListingWalk.walk(
                request -> new Answers.Listing(List.of(), Optional.of("same")), KeyPrefix.ALL, 10));
        assertEquals(ErrorKind.INTERNAL, failure.kind());
    }

    @Test
    void aCursorThatComesBackAfterOthersStopsTheWalk() {
        Map<Optional<String>, Answers.Listing> cycle = Map.of(
                Optional.empty(), new Answers.Listing(List.of(), Optional.of("p1")),
                Optional.of("p1"), new Answers.Listing(List.of(), Optional.of("p2")),
                Optional.of("p2"), new Answers.Listing(List.of(), Optional.of("p1")));
        List<ListRequest> asked = new ArrayList<>();

        assertThrows(DagnatsException.class, () -> ListingWalk.walk(request -> {
            asked.add(request);
            return cycle.get(request.cursor());
        }, KeyPrefix.ALL, 10));
        assertEquals(3, asked.size());
    }

    @Test
    void anAsynchronousWalkFailsOnARepeatedCursorInsteadOfLooping() {
        CompletionException failure = assertThrows(CompletionException.class, () -> ListingWalk.walkAsync(
                request -> CompletableFuture.completedFuture(new Answers.Listing(List.of(), Optional.of("same"))),
                KeyPrefix.ALL, 10).join());
        assertTrue(failure.getCause() instanceof DagnatsException, failure.toString());
    }
}
