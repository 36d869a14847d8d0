package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code dagnats shards [SET]}: the holder library's shard sets (ADR-031) as dagnats' listing
 * shows them, walked like {@code leases ls} (the protocol's {@code ListingWalk}). With a set:
 * its members, each shard's owner and fence, each member's count against ⌊M/N⌋ and ⌈M/N⌉,
 * and the shards without an owner; without: every set whose keys are held.
 */
@Command(name = "shards", description = {
    "Show the holder library's shard sets: members, each shard's owner, whether the set is balanced.",
    "With SET: its members (holder ids) with their capacities and targets (M x capacity / total capacity, within"
            + " one shard), each shard's owner (holder, fence), the shards still to move and without an owner, and"
            + " the keep-alive cost: the member leases' renewals a second against a lease per shard."
            + " Without SET: the sets whose keys are held.",
    "The number of shards M is stored nowhere (each holder passes it to LeaseHolder.shards): it is taken as one"
            + " more than the highest shard key held, unless --shards names it."})
final class ShowShards implements Callable<Integer> {

    private final Context context;

    @Mixin
    CommonOptions options;

    @Parameters(paramLabel = "SET", arity = "0..1", description = "The shard set's name (default: list the sets).")
    String set;

    @Option(names = "--shards", paramLabel = "M", description = "The set's number of shards, as its holders"
            + " pass it (default: one more than the highest shard key held).")
    Integer shards;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    ShowShards(Context context) {
        this.context = context;
    }

    /** A set of one account's namespace (identity mode holds the same name in several). */
    private record SetName(Optional<Account> account, String set) {
    }

    @Override
    public Integer call() {
        if (set != null) {
            ShardSetKeys.refused(set).ifPresent(why -> {
                throw new CommandLine.ParameterException(spec.commandLine(), why);
            });
        }
        if (shards != null && (set == null || shards < 1 || shards > ShardSetKeys.MAX_SHARDS)) {
            throw new CommandLine.ParameterException(spec.commandLine(), set == null ? "--shards needs a SET"
                    : "--shards must be from 1 to " + ShardSetKeys.MAX_SHARDS);
        }
        List<LeaseView> leases = new ArrayList<>();
        try (NatsSession session = options.open()) {
            DagnatsCalls calls = new DagnatsCalls(session);
            if (set == null) {
                leases.addAll(calls.listAll(KeyPrefix.ALL, ListRequest.MAX_PAGE_SIZE));
            } else {
                leases.addAll(calls.listAll(ShardSetKeys.memberPrefix(set), ListRequest.MAX_PAGE_SIZE));
                leases.addAll(calls.listAll(ShardSetKeys.capacityPrefix(set), ListRequest.MAX_PAGE_SIZE));
                leases.addAll(calls.listAll(ShardSetKeys.shardPrefix(set), ListRequest.MAX_PAGE_SIZE));
            }
        }
        Map<SetName, List<LeaseView>> bySet = new LinkedHashMap<>();
        for (LeaseView lease : leases) {
            ShardSetKeys.parse(lease.key()).filter(named -> set == null || named.set().equals(set)).ifPresent(named ->
                    bySet.computeIfAbsent(new SetName(lease.account(), named.set()), name -> new ArrayList<>()).add(lease));
        }
        if (set != null && bySet.isEmpty()) {
            bySet.put(new SetName(Optional.empty(), set), List.of());
        }
        OptionalInt declared = shards == null ? OptionalInt.empty() : OptionalInt.of(shards);
        List<ShardSetView> views = bySet.entrySet().stream()
                .map(entry -> ShardSetView.of(entry.getKey().set(), entry.getKey().account(), entry.getValue(), declared))
                .sorted(Comparator.comparing(ShardSetView::name))
                .toList();
        ShardsOutput output = new ShardsOutput(context.out(), context.clock().instant());
        if (set == null) {
            output.sets(views, options.json());
        } else {
            output.details(views, options.json());
        }
        return 0;
    }
}
