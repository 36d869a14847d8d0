package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.dagnats.leases.holder.internal.Scheduler;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.ListingWalk;
import io.dagnats.leases.protocol.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * What one replica sees of its shard set, kept up to date on the set's loop: a
 * {@link ShardView} fed by listings of both prefixes (at once, then every third of
 * the TTL, and afresh when asked) and by the change events of the shard keys and
 * of the members listed. A listing runs while the loop goes on; its pages come
 * back as a task of their own. After every change of the view it calls
 * {@code changed}, the set's decision. Loop only, except {@link #start}, which
 * subscribes before the set keeps its member lease.
 */
final class ShardSight {

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.ShardSight");

    private final ShardKeys keys;
    private final LeaseClient client;
    private final KeyChanges changes;
    private final Scheduler loop;
    private final Duration period;
    private final Runnable changed;
    private final Set<HolderId> followedMembers = new HashSet<>();
    private ShardView view;
    private Phase phase = new Phase.Watching();

    /** Where the sight stands, on the loop: named, instead of flags that could disagree. */
    private sealed interface Phase {
        /** No listing under way: a look starts one. */
        record Watching() implements Phase {
        }

        /** A listing under way; {@code again}: a look was asked for meanwhile, and starts when it ends. */
        record Listing(boolean again) implements Phase {
        }

        /** No more looks, events or decisions: the set is leaving. */
        record Stopped() implements Phase {
        }
    }

    ShardSight(ShardKeys keys, HolderId me, LeaseClient client, KeyChanges changes, Scheduler loop, Duration ttl,
            Runnable changed) {
        this.keys = keys;
        this.client = client;
        this.changes = changes;
        this.loop = loop;
        this.period = Duration.ofMillis(Math.max(100, ttl.toMillis() / 3));
        this.changed = changed;
        this.view = ShardView.unlisted(keys, me);
    }

    ShardView view() {
        return view;
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
        if (phase instanceof Phase.Listing) {
            phase = new Phase.Listing(true);
        } else {
            look();
        }
    }

    /** {@code shard} is left to its TTL ({@link ShardView#abandoned}). */
    void abandoned(int shard) {
        view = view.abandoned(shard);
    }

    /** No more looks, events or decisions: the set is leaving. */
    void stop() {
        phase = new Phase.Stopped();
    }

    /** Ends every subscription, once the set has left. */
    void close() {
        changes.close();
    }

    private void lookEveryPeriod() {
        if (!(phase instanceof Phase.Stopped)) {
            look();
            loop.schedule(this::lookEveryPeriod, period.toNanos());
        }
    }

    private void look() {
        if (!(phase instanceof Phase.Watching)) {
            return;
        }
        phase = new Phase.Listing(false);
        long begunAt = view.step();
        walk(keys.memberPrefix()).thenCombine(walk(keys.shardPrefix()), (members, shards) -> {
            List<LeaseView> all = new ArrayList<>(members);
            all.addAll(shards);
            return all;
        }).whenComplete((leases, failure) -> loop.execute(() -> listed(leases, failure, begunAt)));
    }

    private CompletableFuture<List<LeaseView>> walk(KeyPrefix prefix) {
        return ListingWalk.walkAsync(client::list, prefix, ListRequest.MAX_PAGE_SIZE);
    }

    private void listed(List<LeaseView> leases, Throwable failure, long begunAt) {
        if (!(phase instanceof Phase.Listing listing)) {
            return; // stopped meanwhile
        }
        phase = new Phase.Watching();
        if (failure != null) {
            LOG.log(System.Logger.Level.WARNING, "shard set " + keys.set() + " could not list its leases ("
                    + (failure.getCause() != null ? failure.getCause() : failure).getMessage() + (view.listed() ? "); it decides from the events it saw"
                            : "); it takes no shard until a listing succeeds (holders need " + Operation.LIST.subject() + ")"));
        } else {
            view = view.listed(leases, begunAt);
            follow();
        }
        if (listing.again()) {
            look();
        } else {
            changed.run();
        }
    }

    /** Follows the change events of every member listed (and of no other), so one that leaves is noticed at once. */
    private void follow() {
        Set<HolderId> members = view.members();
        for (HolderId seen : members) {
            if (followedMembers.add(seen)) {
                changes.follow(keys.member(seen), this::heard);
            }
        }
        followedMembers.removeIf(gone -> {
            if (members.contains(gone)) {
                return false;
            }
            changes.unfollow(keys.member(gone));
            return true;
        });
    }

    /** A change event of a shard or member key, on a thread of the connection: folded into the view on the loop. */
    private void heard(Optional<LeaseChange> event) {
        event.ifPresent(change -> loop.execute(() -> {
            if (!(phase instanceof Phase.Stopped)) {
                view = view.changed(change);
                changed.run();
            }
        }));
    }
}
