package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.application.LeaseListing;
import io.dagnats.leases.application.LeaseTelemetry.Facts;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.Replies;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A list page as the reply carries it: its cursor, and a page cut to fit max_payload. */
class ListHandlerTest {

    private static List<Lease> leases(int count) {
        List<Lease> leases = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            leases.add(new Lease(new LeaseKey("shard-" + i), new HolderId("worker-" + i), new Fence(100 + 2 * i),
                    new Fence(100 + 2 * i), Instant.EPOCH, Instant.EPOCH, new LeaseTtl(15_000)));
        }
        return leases;
    }

    @Test
    void aPageThatFitsIsAnsweredWholeWithItsCursor() {
        Answer answer = ListHandler.answer(leases(3), OptionalLong.of(200), 1 << 20);

        Answers.Listing listing = Replies.decodeList(answer.body());
        assertEquals(3, listing.leases().size());
        assertEquals(Optional.of("200"), listing.nextCursor());
        assertEquals(new Facts.Listed(3), answer.facts());
    }

    @Test
    void theLastPageHasNoCursor() {
        assertEquals(Optional.empty(), Replies.decodeList(ListHandler.answer(leases(2), OptionalLong.empty(), 1 << 20)
                .body()).nextCursor());
    }

    @Test
    void aPageTooLargeForMaxPayloadKeepsItsFirstLeasesAndGoesOnAfterTheLastKept() {
        Answer answer = ListHandler.answer(leases(100), OptionalLong.empty(), 4_000);

        assertTrue(answer.body().length <= 4_000, answer.body().length + " bytes");
        Answers.Listing listing = Replies.decodeList(answer.body());
        int kept = listing.leases().size();
        assertTrue(kept >= 1 && kept < 100, kept + " kept");
        Lease lastKept = leases(100).get(kept - 1);
        assertEquals(lastKept.key(), listing.leases().get(kept - 1).key());
        assertEquals(Optional.of(Long.toString(lastKept.revision().revision() + 1)), listing.nextCursor());
    }

    @Test
    void aCursorIsThePositionTheListingGoesOnFrom() {
        List<Long> asked = new ArrayList<>();
        LeaseListing listing = (prefix, from, limit) -> {
            asked.add(from);
            return CompletableFuture.completedFuture(new LeaseListing.Page(List.of(), OptionalLong.empty()));
        };
        ListHandler handler = new ListHandler(listing, () -> 1 << 20);

        handler.list(ListRequest.first(KeyPrefix.ALL, 10)).toCompletableFuture().join();
        handler.list(ListRequest.first(KeyPrefix.ALL, 10).next("1796055758681470")).toCompletableFuture().join();

        assertEquals(List.of(0L, 1796055758681470L), asked);
    }

    @Test
    void aCursorThisServiceDidNotMakeIsInvalid() {
        ListHandler handler = new ListHandler((prefix, from, limit) -> {
            throw new AssertionError("not listed");
        }, () -> 1 << 20);

        for (String cursor : List.of("abc", "0", "-1", "99999999999999999999")) {
            assertThrows(InvalidLeaseInput.class,
                    () -> handler.list(ListRequest.first(KeyPrefix.ALL, 10).next(cursor)), cursor);
        }
    }
}
