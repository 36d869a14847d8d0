package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.Answers.Listing;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Every held lease under a prefix, walked page by page over {@link Operation#LIST}
 * as {@link ListRequest} describes, sorted by key. The one walk every client uses
 * (the CLI's ls, watch and status, the holder library's shard sets).
 *
 * <p>A key renewed during the walk may come twice: the higher fence is the later
 * write, and is kept (fences compare unsigned, as {@link io.dagnats.leases.domain.Fence}
 * does). A reply that names a cursor this walk has already sent would make it
 * loop forever; the walk fails instead, with {@link ErrorKind#INTERNAL}.
 */
public final class ListingWalk {

    /** Per account and key: an operator's listing in identity mode holds the same key of several accounts (ADR-036). */
    private final Map<Listed, LeaseView> byKey = new HashMap<>();

    private record Listed(Optional<Account> account, LeaseKey key) {
    }
    private final Set<String> cursorsSent = new HashSet<>();
    private ListRequest request;

    private ListingWalk(KeyPrefix prefix, int pageSize) {
        this.request = ListRequest.first(prefix, pageSize);
    }

    /**
     * Walks with {@code pages}, which answers one page request (and throws what it throws).
     *
     * @throws DagnatsException {@link ErrorKind#INTERNAL} for a reply that repeats a cursor
     */
    public static List<LeaseView> walk(Function<ListRequest, Listing> pages, KeyPrefix prefix, int pageSize) {
        ListingWalk walk = new ListingWalk(prefix, pageSize);
        Optional<ListRequest> next = Optional.of(walk.request);
        while (next.isPresent()) {
            next = walk.add(pages.apply(next.get()));
        }
        return walk.leases();
    }

    /**
     * As {@link #walk}, with {@code pages} asynchronous: the stage completes with every
     * lease, or fails as a page failed, or with {@link DagnatsException} for a repeated cursor.
     */
    public static CompletableFuture<List<LeaseView>> walkAsync(
            Function<ListRequest, ? extends CompletionStage<Listing>> pages, KeyPrefix prefix, int pageSize) {
        ListingWalk walk = new ListingWalk(prefix, pageSize);
        return walk.from(pages, walk.request);
    }

    private CompletableFuture<List<LeaseView>> from(Function<ListRequest, ? extends CompletionStage<Listing>> pages,
            ListRequest page) {
        CompletionStage<Listing> answered;
        try {
            answered = pages.apply(page);
        } catch (RuntimeException failed) {
            return CompletableFuture.failedFuture(failed);
        }
        return answered.toCompletableFuture().thenCompose(listing -> add(listing)
                .map(next -> from(pages, next))
                .orElseGet(() -> CompletableFuture.completedFuture(leases())));
    }

    /** Takes in the answer to {@link #request}: the next page to ask for, or empty when the walk is done. */
    private Optional<ListRequest> add(Listing page) {
        for (LeaseView lease : page.leases()) {
            byKey.merge(new Listed(lease.account(), lease.key()), lease, ListingWalk::later);
        }
        Optional<String> next = page.nextCursor();
        if (next.isEmpty()) {
            return Optional.empty();
        }
        request.cursor().ifPresent(cursorsSent::add);
        if (cursorsSent.contains(next.get())) {
            throw new DagnatsException(ErrorKind.INTERNAL, "dagnats answered a listing of '" + request.prefix().value()
                    + "' with a next cursor it had been sent already (" + next.get() + "): stopped, to not loop");
        }
        request = request.next(next.get());
        return Optional.of(request);
    }

    private List<LeaseView> leases() {
        return byKey.values().stream()
                .sorted(Comparator.comparing((LeaseView lease) -> lease.key().value())
                        .thenComparing(lease -> lease.account().map(Account::value).orElse("")))
                .toList();
    }

    private static LeaseView later(LeaseView one, LeaseView other) {
        return one.revision().compareTo(other.revision()) >= 0 ? one : other;
    }
}
