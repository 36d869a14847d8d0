package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseView;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What one replica knows of its shard set, from facts only: the last write it saw
 * of each member and shard key (from a listing or a change event), and the shards
 * it abandoned to their TTL. A pure value: each change returns a new view, and
 * {@link #plan} hands the rule ({@link ShardBalance}) what it decides from.
 *
 * <p>Members are member keys held by the holder they name ({@link ShardKeys#memberOf});
 * owners are the holders of shard keys. A listing replaces what is known, except
 * what an event taught after the listing began: the listing may have read that
 * key before the event's write, so the event stands unless the listing shows a
 * later write. An abandoned shard stays this replica's own, not free, until a
 * fact shows it freed or held by another: the server still holds it under this
 * replica's id, and an acquire under that id would be granted that very write.
 *
 * @param step      how many changes made this view; a listing names the step it began at
 * @param facts     the last write seen of each key of the set
 * @param abandoned each shard left to its TTL, with the step it was abandoned at
 */
record ShardView(ShardKeys keys, HolderId me, boolean listed, long step, Map<LeaseKey, Fact> facts,
        Map<Integer, Long> abandoned) {

    /**
     * The last write seen of one key.
     *
     * @param holder   who holds the key after it, or empty when it freed the key
     * @param sequence the write's revision (the event's sequence, or the listed lease's fence)
     * @param step     the view's step when an event taught it; {@link #LISTED} from a listing
     */
    record Fact(Optional<HolderId> holder, long sequence, long step) {
        static final long LISTED = -1;

        boolean isLaterThan(Fact other) {
            return Long.compareUnsigned(sequence, other.sequence) > 0;
        }
    }

    ShardView {
        facts = Map.copyOf(facts);
        abandoned = Map.copyOf(abandoned);
    }

    /** Before the first listing: it knows nothing, and {@link #plan} takes nothing. */
    static ShardView unlisted(ShardKeys keys, HolderId me) {
        return new ShardView(keys, me, false, 0, Map.of(), Map.of());
    }

    /** The holders whose member leases are held by themselves. */
    Set<HolderId> members() {
        Set<HolderId> members = new HashSet<>();
        facts.forEach((key, fact) -> fact.holder().flatMap(holder -> keys.memberOf(key, holder)).ifPresent(members::add));
        return members;
    }

    /** The holder of each shard seen held. */
    Map<Integer, HolderId> owners() {
        Map<Integer, HolderId> owners = new TreeMap<>();
        facts.forEach((key, fact) -> keys.shardOf(key).ifPresent(shard -> fact.holder().ifPresent(
                holder -> owners.put(shard, holder))));
        return owners;
    }

    /** A listing of both prefixes, begun at step {@code begunAt}, applied. */
    ShardView listed(List<LeaseView> leases, long begunAt) {
        Map<LeaseKey, Fact> next = new HashMap<>();
        facts.forEach((key, fact) -> {
            if (fact.step() > begunAt) {
                next.put(key, fact);
            }
        });
        for (LeaseView lease : leases) {
            if (ofTheSet(lease.key())) {
                Fact seen = new Fact(Optional.of(lease.holder()), lease.revision().revision(), Fact.LISTED);
                next.merge(lease.key(), seen, (known, listed) -> listed.isLaterThan(known) ? listed : known);
            }
        }
        Map<Integer, Long> stillAbandoned = new HashMap<>();
        abandoned.forEach((shard, at) -> {
            Fact fact = next.get(keys.shard(shard));
            boolean listingIsOlder = at > begunAt;
            if (fact == null ? listingIsOlder : heldByMe(fact)) {
                stillAbandoned.put(shard, at);
            }
        });
        return new ShardView(keys, me, true, step + 1, next, stillAbandoned);
    }

    /** A change event of one of the set's keys applied; one older than what is known changes nothing. */
    ShardView changed(LeaseChange change) {
        if (!ofTheSet(change.key()) || (!change.kind().endsLease() && change.holder().isEmpty())) {
            return this;
        }
        Fact fact = new Fact(change.kind().endsLease() ? Optional.empty() : change.holder(), change.sequence(), step + 1);
        Fact known = facts.get(change.key());
        if (known != null && !fact.isLaterThan(known)) {
            return this;
        }
        Map<LeaseKey, Fact> next = new HashMap<>(facts);
        next.put(change.key(), fact);
        Map<Integer, Long> stillAbandoned = new HashMap<>(abandoned);
        keys.shardOf(change.key()).filter(shard -> !heldByMe(fact)).ifPresent(stillAbandoned::remove);
        return new ShardView(keys, me, listed, step + 1, next, stillAbandoned);
    }

    /** {@code shard} is left to its TTL: this replica's own until a fact shows it freed or held by another. */
    ShardView abandoned(int shard) {
        Map<Integer, Long> next = new HashMap<>(abandoned);
        next.put(shard, step + 1);
        return new ShardView(keys, me, listed, step + 1, facts, next);
    }

    /**
     * What to do now, by the rule.
     *
     * @param memberHeld whether this replica acts as owner of its member lease now
     * @param owned      the shards it acts as owner of and keeps (none being drained)
     * @param pending    the shards it campaigns for
     * @param draining   the shards it is draining
     */
    ShardBalance.Plan plan(boolean memberHeld, Set<Integer> owned, Set<Integer> pending, Set<Integer> draining) {
        if (!listed) {
            return ShardBalance.Plan.NOTHING;
        }
        Set<HolderId> members = members();
        if (memberHeld) {
            members.add(me);
        } else {
            members.remove(me);
        }
        Set<Integer> leaving = new TreeSet<>(draining);
        leaving.addAll(abandoned.keySet());
        return ShardBalance.decide(new ShardBalance.View(keys.shardCount(), me, members, owners(), owned, pending,
                leaving));
    }

    private boolean ofTheSet(LeaseKey key) {
        return keys.shardOf(key).isPresent() || keys.namedBy(key).isPresent();
    }

    private boolean heldByMe(Fact fact) {
        return fact.holder().filter(me::equals).isPresent();
    }
}
