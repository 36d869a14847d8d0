package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one member knows of a shard set whose shards are attached to member leases (ADR-043,
 * ADR-044), from facts only: the last write seen of each member, capacity and shard key, from a
 * listing or a change event, and when each member's capacity was first seen (for settling). A pure
 * value: each change returns a new one. A listing replaces what is known except what an event
 * taught after it began (the listing may have read the key before the event's write), unless the
 * listing shows a later write, as ADR-031 said of the shard leases.
 *
 * @param listedFrom    when the last listing applied began, on the set's monotonic clock: what it
 *                      did not show was free at some moment after then
 * @param step          how many changes made this view; a listing names the step it began at
 * @param facts         the last write seen of each key of the set
 * @param capacitySince when each member's capacity was first seen, on the set's monotonic clock
 */
record SetFacts(ShardKeys keys, boolean listed, long listedFrom, long step, Map<LeaseKey, Seen> facts, Map<HolderId, Long> capacitySince) {

    /**
     * The last write seen of one key.
     *
     * @param holder      who holds it after the write; empty when the write freed it
     * @param revision    the write's revision
     * @param tenure      a member key's tenure start; an attached key's member tenure; empty if not told
     * @param value       the value stored with an attached key (a capacity)
     * @param step        the view's step when an event taught it; {@link #LISTED} from a listing
     */
    record Seen(Optional<HolderId> holder, Optional<Incarnation> incarnation, long revision, Optional<Fence> tenure,
            Optional<String> value, long step) {
        static final long LISTED = -1;

        boolean isLaterThan(Seen other) {
            return Long.compareUnsigned(revision, other.revision) > 0;
        }
    }

    /** A member: its holder's incarnation and the start of its member lease's tenure, if known. */
    record Member(HolderId holder, Optional<Incarnation> incarnation, Optional<Fence> tenure) {
    }

    SetFacts {
        facts = Map.copyOf(facts);
        capacitySince = Map.copyOf(capacitySince);
    }

    static SetFacts unlisted(ShardKeys keys) {
        return new SetFacts(keys, false, 0, 0, Map.of(), Map.of());
    }

    /** Holders whose member keys they hold themselves. */
    Map<HolderId, Member> members() {
        Map<HolderId, Member> members = new HashMap<>();
        facts.forEach((key, seen) -> seen.holder().flatMap(holder -> keys.memberOf(key, holder)).ifPresent(
                holder -> members.put(holder, new Member(holder, seen.incarnation(), seen.tenure()))));
        return members;
    }

    /** The live owner of each shard: a member, attached (when both tenures are known) to its current tenure. */
    Map<Integer, HolderId> owners() {
        Map<HolderId, Member> members = members();
        Map<Integer, HolderId> owners = new TreeMap<>();
        facts.forEach((key, seen) -> keys.shardOf(key).ifPresent(shard -> seen.holder()
                .filter(holder -> livesBy(seen, members.get(holder)))
                .ifPresent(holder -> owners.put(shard, holder))));
        return owners;
    }

    /** The last write seen of {@code shard}'s key, if any. */
    Optional<Seen> shard(int shard) {
        return Optional.ofNullable(facts.get(keys.shard(shard)));
    }

    /** Each member's capacity, for members whose capacity key is seen live; 0 or unreadable values are left out. */
    Map<HolderId, Integer> capacities() {
        Map<HolderId, Member> members = members();
        Map<HolderId, Integer> capacities = new HashMap<>();
        facts.forEach((key, seen) -> seen.holder().flatMap(holder -> keys.capacityOf(key, holder))
                .filter(holder -> livesBy(seen, members.get(holder)))
                .ifPresent(holder -> capacity(seen).ifPresent(capacity -> capacities.put(holder, capacity))));
        return capacities;
    }

    /** The view placement plans from: members with a capacity, settled once seen for {@code settleNanos}. */
    ShardPlacement.View placement(long nowNanos, long settleNanos, int movesPerRound) {
        Map<HolderId, ShardPlacement.Member> members = new HashMap<>();
        capacities().forEach((holder, capacity) -> members.put(holder, new ShardPlacement.Member(holder, capacity,
                nowNanos - capacitySince.getOrDefault(holder, nowNanos) >= settleNanos)));
        return new ShardPlacement.View(keys.shardCount(), members, owners(), movesPerRound);
    }

    /**
     * Whether these facts show {@code shard} no longer {@code me}'s at {@code revision}, granted here
     * at {@code grantedAt}: a write of its key after that one (revoked, freed, moved or attached by
     * anyone), or a listing begun after the grant that shows the key otherwise or not at all (free).
     * An event of an older write says nothing, nor does a listing begun before the grant.
     */
    boolean showsGone(int shard, HolderId me, Fence revision, long grantedAt) {
        Seen seen = facts.get(keys.shard(shard));
        boolean listedSince = listed && listedFrom - grantedAt > 0;
        if (seen == null) {
            return listedSince;
        }
        if (seen.holder().filter(me::equals).isPresent() && seen.revision() == revision.revision()) {
            return false;
        }
        return Long.compareUnsigned(seen.revision(), revision.revision()) >= 0
                || (listedSince && seen.step() == Seen.LISTED);
    }

    /**
     * Whether a shard granted at {@code grantedAt} has gone unseen for more than {@code ttlNanos} at
     * {@code nowNanos}: no listing begun since the grant succeeded for that long. A shard has no renew
     * of its own; its owner learns of a revoke from the event or a listing, and with its events lost
     * and its listings failing, belief must still end within a bound (a TTL, as a kept lease's does).
     */
    boolean unseenSince(long grantedAt, long nowNanos, long ttlNanos) {
        long sight = listed && listedFrom - grantedAt > 0 ? listedFrom : grantedAt;
        return nowNanos - sight > ttlNanos;
    }

    /** A listing of the set's prefixes, begun at step {@code begunAt} and at {@code begunNanos}, applied at {@code nowNanos}. */
    SetFacts listed(Map<LeaseKey, Seen> listing, long begunAt, long begunNanos, long nowNanos) {
        Map<LeaseKey, Seen> next = new HashMap<>();
        facts.forEach((key, seen) -> {
            if (seen.step() > begunAt) {
                next.put(key, seen);
            }
        });
        listing.forEach((key, seen) -> {
            if (ofTheSet(key)) {
                next.merge(key, seen, (known, listed) -> listed.isLaterThan(known) ? listed : known);
            }
        });
        return new SetFacts(keys, true, begunNanos, step + 1, next, Map.of()).since(capacitySince, nowNanos);
    }

    /** One change event of a key: what it shows, and whether it begins a member tenure (a member key's acquire). */
    record Change(LeaseKey key, Seen seen, boolean beginsTenure) {
    }

    /** A change event of one of the set's keys applied at {@code nowNanos}: {@link #changed(List, long)} of one. */
    SetFacts changed(LeaseKey key, Seen seen, boolean beginsTenure, long nowNanos) {
        return changed(List.of(new Change(key, seen, beginsTenure)), nowNanos);
    }

    /**
     * Change events of the set's keys, in the order heard, applied at {@code nowNanos}, each as if
     * alone: one older than what is known changes nothing; a write that keeps a key's tenure (a
     * renew) keeps the tenure known. One copy of the facts for them all: a member's thousand freed
     * shards heard at once cost one pass over the set, not a thousand.
     */
    SetFacts changed(List<Change> changes, long nowNanos) {
        Map<LeaseKey, Seen> next = new HashMap<>(facts);
        long at = step;
        for (Change change : changes) {
            Seen known = next.get(change.key());
            Seen seen = change.seen();
            if (!ofTheSet(change.key()) || (known != null && !seen.isLaterThan(known))) {
                continue;
            }
            Seen fact = seen;
            if (!change.beginsTenure() && seen.tenure().isEmpty() && known != null && known.holder().equals(seen.holder())) {
                fact = new Seen(seen.holder(), seen.incarnation(), seen.revision(), known.tenure(),
                        seen.value().or(known::value), seen.step());
            }
            next.put(change.key(), new Seen(fact.holder(), fact.incarnation(), fact.revision(), fact.tenure(),
                    fact.value(), ++at));
        }
        return at == step ? this : new SetFacts(keys, listed, listedFrom, at, next, Map.of()).since(capacitySince, nowNanos);
    }

    /** When each member's capacity was first seen: kept for those still seen, {@code nowNanos} for new ones. */
    private SetFacts since(Map<HolderId, Long> before, long nowNanos) {
        Map<HolderId, Long> since = new HashMap<>();
        capacities().keySet().forEach(holder -> since.put(holder, before.getOrDefault(holder, nowNanos)));
        return new SetFacts(keys, listed, listedFrom, step, facts, since);
    }

    /** An attached key lives by its member, at the tenure it names when both are known. */
    private static boolean livesBy(Seen attached, Member member) {
        return member != null && (attached.tenure().isEmpty() || member.tenure().isEmpty()
                || attached.tenure().equals(member.tenure()));
    }

    private static Optional<Integer> capacity(Seen seen) {
        try {
            return seen.value().map(String::trim).map(Integer::parseInt).filter(capacity -> capacity >= 1);
        } catch (NumberFormatException unreadable) {
            return Optional.empty();
        }
    }

    private boolean ofTheSet(LeaseKey key) {
        return keys.shardOf(key).isPresent() || keys.namedBy(key).isPresent()
                || key.value().startsWith(keys.capacityPrefix().value());
    }
}
