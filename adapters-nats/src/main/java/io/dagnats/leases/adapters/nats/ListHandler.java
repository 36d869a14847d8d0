package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseListing;
import io.dagnats.leases.application.LeaseTelemetry.Facts;
import io.dagnats.leases.domain.Caller;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.Replies;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

/**
 * list: one page of the walk over the held leases. The cursor is the position
 * the listing goes on from, in decimal; a page whose reply would not fit the
 * server's max_payload keeps its first leases and goes on after the last one
 * kept.
 */
final class ListHandler {

    /** Room left in max_payload for what the reply carries besides its body (micro's headers). */
    private static final int HEADROOM = 1024;

    private final LeaseListing listing;
    private final LongSupplier maxPayload;

    /** @param maxPayload the server's max_payload, asked at each reply: it may change on reconnect */
    ListHandler(LeaseListing listing, LongSupplier maxPayload) {
        this.listing = Objects.requireNonNull(listing, "listing");
        this.maxPayload = Objects.requireNonNull(maxPayload, "maxPayload");
    }

    CompletionStage<Answer> list(ListRequest request) {
        return list(request, Caller.SHARED);
    }

    /** Only what the caller may see: its account's keys, or an operator's every account's (ADR-036). */
    CompletionStage<Answer> list(ListRequest request, Caller caller) {
        long from = request.cursor().map(ListHandler::position).orElse(0L);
        return listing.page(request.prefix().in(caller.listed()), from, request.pageSize())
                .thenApply(page -> answer(page.leases(), page.next(), maxPayload.getAsLong() - HEADROOM));
    }

    /** The reply for a page, cut to its first leases when the whole would not fit in {@code limit} bytes. */
    static Answer answer(List<Lease> leases, OptionalLong next, long limit) {
        List<Lease> kept = leases;
        Optional<String> cursor = cursor(next);
        byte[] body = Replies.list(kept, cursor);
        // A lease view is under 1 KB, so one always fits; halving keeps the cost to a few encodes.
        while (body.length > limit && kept.size() > 1) {
            kept = kept.subList(0, kept.size() / 2);
            cursor = cursor(OptionalLong.of(kept.get(kept.size() - 1).revision().revision() + 1));
            body = Replies.list(kept, cursor);
        }
        return new Answer(body, new Facts.Listed(kept.size()));
    }

    private static Optional<String> cursor(OptionalLong next) {
        return next.isPresent() ? Optional.of(Long.toString(next.getAsLong())) : Optional.empty();
    }

    /** @throws InvalidLeaseInput when the cursor is not one this service made */
    private static long position(String cursor) {
        try {
            long position = Long.parseLong(cursor);
            if (position >= 1) {
                return position;
            }
        } catch (NumberFormatException notOurs) {
            // answered below
        }
        throw new InvalidLeaseInput("cursor is not one dagnats made: send the next_cursor of the previous reply as it was");
    }
}
