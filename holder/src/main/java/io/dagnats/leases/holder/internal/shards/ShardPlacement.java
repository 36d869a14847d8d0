package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.holder.ShardQuotas;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Where a shard set's shards belong, by capacity, and which of them move this round: a pure
 * function of one view of the set, so every member that sees the same set plans the same round
 * (ADR-044).
 *
 * <p><b>Quotas</b> follow capacity by largest remainder: member m's exact share is M·c/Σc; each
 * gets its floor, and the shards left over go one each to the largest fractional remainders, ties
 * to the members that own more than their floor now, then to the lowest holder id. Every member is within one
 * shard of its exact share, and ranking by what is owned now keeps a settled spread where it is.
 *
 * <p><b>Claims</b>: a shard with no live owner is claimed at once, without any budget, by the
 * settled members, each up to its share among the settled members: a member that died must be
 * healed within its TTL (the survivors are settled), even while a newcomer settles. Free shards go
 * in ascending order to settled members in holder id order, each taking as many as it lacks, so
 * two members that see the same view never claim the same shard. A member not settled yet claims
 * nothing: members that start together see each other first, instead of the first taking every
 * shard and the budget moving them back; a newcomer gets its share by budgeted moves.
 *
 * <p><b>Moves</b>: what members own over their quota goes to settled members still under it after
 * the claims, at most the round's budget, taken one from each source in turn (so the drains of a
 * round spread over the sources), highest-numbered shard first. A member that is not settled yet
 * (newly joined) is no target; a member that is leaving is not in {@code members} at all, and its
 * shards are neither free nor moved: it drains them itself.
 */
final class ShardPlacement {

    private ShardPlacement() {
    }

    /**
     * A member that takes part in placement: its member lease and capacity are live and it is not leaving.
     *
     * @param settled whether it has been a member long enough to be a target of moves
     */
    record Member(HolderId id, int capacity, boolean settled) {
        Member {
            Objects.requireNonNull(id, "id");
            if (capacity < 1) {
                throw new IllegalArgumentException("a member's capacity is at least 1, not " + capacity);
            }
        }
    }

    /**
     * One view of the set.
     *
     * @param members      the members that take part, by id
     * @param owners       the live owner of each owned shard (members or not)
     * @param movesPerRound the round's budget, at least 1
     */
    record View(int shardCount, Map<HolderId, Member> members, Map<Integer, HolderId> owners, int movesPerRound) {
        View {
            if (shardCount < 1 || movesPerRound < 1) {
                throw new IllegalArgumentException("a view has shards and a budget: " + shardCount + ", " + movesPerRound);
            }
            members = Map.copyOf(members);
            owners = Map.copyOf(owners);
        }
    }

    /** One shard going from its owner to a target member. */
    record Move(int shard, HolderId from, HolderId to) {
    }

    /**
     * What the view asks for.
     *
     * @param quotas each member's share
     * @param claims the free shards each member takes now, ascending
     * @param moves  this round's moves, at most the budget
     */
    record Plan(Map<HolderId, Integer> quotas, Map<HolderId, List<Integer>> claims, List<Move> moves) {
        Plan {
            quotas = Map.copyOf(quotas);
            claims = Map.copyOf(claims);
            moves = List.copyOf(moves);
        }

        List<Integer> claimsOf(HolderId member) {
            return claims.getOrDefault(member, List.of());
        }

        List<Move> movesFrom(HolderId member) {
            return moves.stream().filter(move -> move.from().equals(member)).toList();
        }
    }

    static Plan plan(View view) {
        if (view.members().isEmpty()) {
            return new Plan(Map.of(), Map.of(), List.of());
        }
        Map<HolderId, List<Integer>> owned = ownedByMember(view);
        Map<HolderId, Integer> quotas = quotas(view.shardCount(), view.members().values(), owned);
        // Free shards go by the settled members' shares: a newcomer's share is not left free until it
        // settles (a kill -9 heals at once), and reaches it by budgeted moves once it has.
        List<Member> settled = view.members().values().stream().filter(Member::settled).toList();
        Map<HolderId, Integer> claimable = new TreeMap<>(Comparator.comparing(HolderId::value));
        quotas(view.shardCount(), settled, owned).forEach((member, share) ->
                claimable.put(member, Math.max(0, share - owned.get(member).size())));
        Map<HolderId, List<Integer>> claims = claims(view, claimable);
        Map<HolderId, Integer> lacking = new TreeMap<>(Comparator.comparing(HolderId::value));
        quotas.forEach((member, quota) -> lacking.put(member, Math.max(0, quota - owned.get(member).size()
                - claims.getOrDefault(member, List.of()).size())));
        return new Plan(quotas, claims, moves(view, quotas, owned, lacking));
    }

    /** Each member's quota: {@link ShardQuotas}, the rule the CLI shows too. */
    static Map<HolderId, Integer> quotas(int shardCount, Iterable<Member> members, Map<HolderId, List<Integer>> owned) {
        Map<HolderId, Integer> capacities = new HashMap<>();
        Map<HolderId, Integer> counts = new HashMap<>();
        for (Member member : members) {
            capacities.put(member.id(), member.capacity());
            counts.put(member.id(), owned.getOrDefault(member.id(), List.of()).size());
        }
        return ShardQuotas.of(shardCount, capacities, counts);
    }

    /** The shards each member owns now, ascending; members owning none have an empty list. */
    private static Map<HolderId, List<Integer>> ownedByMember(View view) {
        Map<HolderId, List<Integer>> owned = new HashMap<>();
        view.members().keySet().forEach(member -> owned.put(member, new ArrayList<>()));
        new TreeMap<>(view.owners()).forEach((shard, owner) -> {
            List<Integer> shards = owned.get(owner);
            if (shards != null) {
                shards.add(shard);
            }
        });
        return owned;
    }

    /** Free shards, ascending, to settled members in id order, each as many as it lacks; what they lack is reduced. */
    private static Map<HolderId, List<Integer>> claims(View view, Map<HolderId, Integer> lacking) {
        Map<HolderId, List<Integer>> claims = new HashMap<>();
        int shard = 0;
        for (Map.Entry<HolderId, Integer> member : lacking.entrySet()) {
            List<Integer> mine = new ArrayList<>();
            for (; shard < view.shardCount() && mine.size() < member.getValue(); shard++) {
                if (!view.owners().containsKey(shard)) {
                    mine.add(shard);
                }
            }
            if (!mine.isEmpty()) {
                claims.put(member.getKey(), mine);
                member.setValue(member.getValue() - mine.size());
            }
        }
        return claims;
    }

    /** A member over its quota, and its shards beyond it, highest first. */
    private record Source(HolderId member, Deque<Integer> excess) {
    }

    /** What is over quota to settled members still under it, one from each source in turn, up to the budget. */
    private static List<Move> moves(View view, Map<HolderId, Integer> quotas, Map<HolderId, List<Integer>> owned,
            Map<HolderId, Integer> lacking) {
        Deque<Source> sources = new ArrayDeque<>();
        owned.entrySet().stream()
                .filter(entry -> entry.getValue().size() > quotas.get(entry.getKey()))
                .sorted(Comparator.<Map.Entry<HolderId, List<Integer>>>comparingInt(
                        entry -> entry.getValue().size() - quotas.get(entry.getKey())).reversed()
                        .thenComparing(entry -> entry.getKey().value()))
                .forEach(entry -> {
                    List<Integer> shards = entry.getValue();
                    Deque<Integer> excess = new ArrayDeque<>();
                    for (int i = shards.size() - 1; i >= quotas.get(entry.getKey()); i--) {
                        excess.add(shards.get(i));
                    }
                    sources.add(new Source(entry.getKey(), excess));
                });
        Deque<HolderId> targets = new ArrayDeque<>();
        lacking.forEach((member, lacks) -> {
            if (lacks > 0 && view.members().get(member).settled()) {
                targets.add(member);
            }
        });
        Map<HolderId, Integer> stillLacking = new HashMap<>(lacking);
        List<Move> moves = new ArrayList<>();
        while (moves.size() < view.movesPerRound() && !sources.isEmpty() && !targets.isEmpty()) {
            Source source = sources.poll();
            HolderId target = targets.peek();
            moves.add(new Move(source.excess().poll(), source.member(), target));
            if (stillLacking.merge(target, -1, Integer::sum) == 0) {
                targets.poll();
            }
            if (!source.excess().isEmpty()) {
                sources.add(source);
            }
        }
        return moves;
    }
}
