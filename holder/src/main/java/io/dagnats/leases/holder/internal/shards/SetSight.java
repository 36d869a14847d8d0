package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.MonotonicClock;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.dagnats.leases.holder.internal.Scheduler;
import io.dagnats.leases.protocol.Answers.Listing;
import io.dagnats.leases.protocol.DagnatsException;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.ListingWalk;
import io.dagnats.leases.protocol.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * What one member sees of a shard set whose shards are attached keys, kept up to date on the
 * set's loop: {@link SetFacts} fed by listings of the set's prefix, members, capacities and
 * shards in one walk (at once, every third of the TTL, and afresh when asked), and by the change
 * events of the shard keys and of the members' and capacities' keys listed. As ADR-031 had it, for ADR-044's sets; a
 * listing runs while the loop goes on. Loop only, except {@link #start}.
 */
final class SetSight {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.ShardSight");
    /** How often a page of a walk is asked before the walk fails. */
    private static final int PAGE_TRIES = 2;

    private final ShardKeys keys;
    private final LeaseClient client;
    private final KeyChanges changes;
    private final Scheduler loop;
    private final MonotonicClock clock;
    private final Duration period;
    private final Function<LeaseView, SetFacts.Seen> seenOf;
    private final Runnable changed;
    private final BiConsumer<LeaseKey, SetFacts.Seen> written;
    private final Set<HolderId> followed = new HashSet<>();
    /** Change events heard and not yet folded into the facts, and whether a fold is queued on the loop. */
    private final Queue<LeaseChange> unfolded = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean folding = new AtomicBoolean();
    /** Written on the loop only; read from any thread too (belief in a shard derives from it). */
    private volatile SetFacts facts;
    /** Whether a listing is under way, and whether another was asked for meanwhile; no more looks once stopped. */
    private boolean listing;
    private boolean again;
    private boolean stopped;

    /**
     * @param seenOf  what a listed lease shows of a key: its holder, revision, tenure and attached value
     * @param written told on the loop of every write seen, each listed lease and each event, as it is
     *                seen: the holder's floors must know every write, not only what the facts keep
     */
    SetSight(ShardKeys keys, LeaseClient client, KeyChanges changes, Scheduler loop, MonotonicClock clock, Duration ttl,
            Function<LeaseView, SetFacts.Seen> seenOf, Runnable changed, BiConsumer<LeaseKey, SetFacts.Seen> written) {
        this.keys = keys;
        this.client = client;
        this.changes = changes;
        this.loop = loop;
        this.clock = clock;
        this.period = Duration.ofMillis(Math.max(100, ttl.toMillis() / 3));
        this.seenOf = seenOf;
        this.changed = changed;
        this.written = written;
        this.facts = SetFacts.unlisted(keys);
    }

    /** How a set makes its sight: told of changes, and of every write seen ({@link #SetSight}'s last two). */
    interface Of {
        SetSight sight(Runnable changed, BiConsumer<LeaseKey, SetFacts.Seen> written);
    }

    /** The sight of a set of {@code client}'s holder, as {@link AttachedShardSet#join} makes it. */
    static Of of(ShardKeys keys, LeaseClient client, KeyChanges changes, Scheduler loop, MonotonicClock clock, Duration ttl) {
        return (changed, written) -> new SetSight(keys, client, changes, loop, clock, ttl, ClientShardCalls::seen, changed,
                written);
    }

    SetFacts facts() {
        return facts;
    }

    /** Follows the shard keys now, and looks at the set on the loop now and every period. */
    void start() {
        changes.open();
        for (int shard = 0; shard < keys.shardCount(); shard++) {
            changes.follow(keys.shard(shard), this::heard);
        }
        loop.execute(this::lookEveryPeriod);
    }

    /** A look that begins after now: one under way may have begun before what the caller knows. */
    void lookAfresh() {
        if (listing) {
            again = true;
        } else {
            look();
        }
    }

    void stop() {
        stopped = true;
    }

    void close() {
        changes.close();
    }

    private void lookEveryPeriod() {
        if (!stopped) {
            look();
            loop.schedule(this::lookEveryPeriod, period.toNanos());
        }
    }

    private void look() {
        if (listing || stopped) {
            return;
        }
        listing = true;
        again = false;
        long begunAt = facts.step();
        long begunNanos = clock.nanoTime();
        // One walk for members, capacities and shards: dagnats reads the whole bucket for any
        // prefix (a prefix filters, it does not index), so three walks cost three reads of it.
        walk(keys.setPrefix())
                .whenComplete((leases, failure) -> loop.execute(() -> listed(leases, failure, begunAt, begunNanos)));
    }

    private CompletableFuture<List<LeaseView>> walk(KeyPrefix prefix) {
        return ListingWalk.walkAsync(request -> page(request, PAGE_TRIES), prefix, ListRequest.MAX_PAGE_SIZE);
    }

    /**
     * One page, asked again when it was not answered or its answer is retryable: a walk of a
     * large set is many pages, and one that timed out under load would otherwise cost the whole
     * walk, asked again a period later. A refusal ({@code forbidden}, {@code invalid}) is not
     * asked again: the same question gets the same answer.
     */
    private CompletableFuture<Listing> page(ListRequest request, int tries) {
        return client.list(request).exceptionallyCompose(failure -> tries > 1 && retryable(failure)
                ? page(request, tries - 1)
                : CompletableFuture.failedFuture(failure));
    }

    private static boolean retryable(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof DagnatsException refused && refused.kind().retryable();
    }

    private void listed(List<LeaseView> leases, Throwable failure, long begunAt, long begunNanos) {
        listing = false;
        if (stopped) {
            return;
        }
        if (failure != null) {
            LOG.log(System.Logger.Level.WARNING, "shard set " + keys.set() + " could not list its leases ("
                    + (failure.getCause() != null ? failure.getCause() : failure).getMessage()
                    + (facts.listed() ? "); it decides from the events it saw"
                            : "); it takes no shard until a listing succeeds (holders need " + Operation.LIST.subject() + ")"));
        } else {
            Map<LeaseKey, SetFacts.Seen> seen = new HashMap<>();
            leases.forEach(lease -> seen.put(lease.key(), seenOf.apply(lease)));
            seen.forEach(written);
            facts = facts.listed(seen, begunAt, begunNanos, clock.nanoTime());
            follow();
        }
        if (again) {
            look();
        } else {
            changed.run();
        }
    }

    /** Follows the member and capacity keys of every member listed (and of no other). */
    private void follow() {
        Set<HolderId> members = facts.members().keySet();
        for (HolderId seen : members) {
            if (followed.add(seen)) {
                changes.follow(keys.member(seen), this::heard);
                changes.follow(keys.capacity(seen), this::heard);
            }
        }
        followed.removeIf(gone -> {
            if (members.contains(gone)) {
                return false;
            }
            changes.unfollow(keys.member(gone));
            changes.unfollow(keys.capacity(gone));
            return true;
        });
    }

    /** A change event, on a thread of the connection: folded into the facts on the loop, with any heard meanwhile. */
    private void heard(Optional<LeaseChange> event) {
        event.ifPresent(change -> {
            unfolded.add(change);
            if (folding.compareAndSet(false, true)) {
                loop.execute(this::fold);
            }
        });
    }

    /**
     * On the loop: every event heard since the last fold, in the order heard, into the facts at
     * once. A member's end frees its thousand shards with a thousand events; folded one by one,
     * each a copy of the whole set's facts, they kept the loop (and the attaches answered behind
     * them) busy for seconds.
     */
    private void fold() {
        folding.set(false);
        List<SetFacts.Change> batch = new ArrayList<>();
        for (LeaseChange change = unfolded.poll(); change != null; change = unfolded.poll()) {
            boolean ends = change.kind().endsLease();
            // Only a member key's acquire begins a tenure that attached keys name.
            boolean begins = change.kind() == LeaseChange.Kind.ACQUIRED && keys.namedBy(change.key()).isPresent();
            batch.add(new SetFacts.Change(change.key(), new SetFacts.Seen(ends ? Optional.empty() : change.holder(),
                    ends ? Optional.empty() : change.incarnation(), change.sequence(),
                    begins ? Optional.of(new Fence(change.sequence())) : Optional.empty(), Optional.empty(), 0), begins));
        }
        batch.forEach(change -> written.accept(change.key(), change.seen()));
        if (!stopped && !batch.isEmpty()) {
            facts = facts.changed(batch, clock.nanoTime());
            changed.run();
        }
    }
}
