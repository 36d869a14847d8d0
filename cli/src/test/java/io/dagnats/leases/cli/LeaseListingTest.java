package io.dagnats.leases.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LeaseListingTest {

    private static LeaseView lease(String key, long revision) {
        Instant now = Instant.parse("2026-11-30T12:00:00Z");
        return new LeaseView(new LeaseKey(key), new HolderId("h"), new Fence(revision), now, now.plusSeconds(15),
                LeaseTtl.ofSeconds(15));
    }

    @Test
    void walksEveryPageSortsByKeyAndKeepsTheLaterOfTwoSightings() {
        Map<Optional<String>, Answers.Listing> pages = Map.of(
                Optional.empty(), new Answers.Listing(List.of(lease("b", 10), lease("a", 11)), Optional.of("p2")),
                Optional.of("p2"), new Answers.Listing(List.of(), Optional.of("p3")),
                Optional.of("p3"), new Answers.Listing(List.of(lease("c", 12), lease("b", 13)), Optional.empty()));
        List<ListRequest> asked = new ArrayList<>();

        List<LeaseView> leases = LeaseListing.walk(request -> {
            asked.add(request);
            return pages.get(request.cursor());
        }, new KeyPrefix("x"), 2);

        assertEquals(List.of("a", "b", "c"), leases.stream().map(lease -> lease.key().value()).toList());
        assertEquals(new Fence(13), leases.get(1).revision());
        assertEquals(3, asked.size());
        assertEquals(List.of("x", "x", "x"), asked.stream().map(request -> request.prefix().value()).toList());
        assertEquals(List.of(2, 2, 2), asked.stream().map(ListRequest::pageSize).toList());
    }

    @Test
    void aCursorThatDoesNotMoveStopsTheWalk() {
        CliFailure failure = assertThrows(CliFailure.class, () -> LeaseListing.walk(
                request -> new Answers.Listing(List.of(), Optional.of("same")), KeyPrefix.ALL, 10));
        assertEquals(CliFailure.OPERATIONAL, failure.exitCode());
    }
}
