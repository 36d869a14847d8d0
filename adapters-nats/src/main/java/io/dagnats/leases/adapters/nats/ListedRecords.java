package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.AttachedLiveness;
import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The records one listing page found, plain leases and keys attached to a member lease (ADR-043),
 * in stream order. An attached key is listed only if the liveness rule says it is held: each distinct
 * member of the page is read once, through the leader, and judges every key of the page attached to it.
 */
final class ListedRecords {

    /** A plain lease or an attached record, in the order the walk met them. */
    private final List<Object> found = new ArrayList<>();

    void plain(Lease lease) {
        found.add(lease);
    }

    void attached(AttachedRecord record) {
        found.add(record);
    }

    /** The held leases, after one leader read per distinct member. */
    CompletionStage<List<Lease>> held(Function<LeaseKey, CompletionStage<KeyState>> leaderRead) {
        Map<LeaseKey, CompletableFuture<KeyState>> members = new LinkedHashMap<>();
        for (Object record : found) {
            if (record instanceof AttachedRecord attached) {
                members.computeIfAbsent(attached.attachment().member(),
                        member -> leaderRead.apply(member).toCompletableFuture());
            }
        }
        return CompletableFuture.allOf(members.values().toArray(CompletableFuture[]::new)).thenApply(all -> {
            List<Lease> leases = new ArrayList<>(found.size());
            for (Object record : found) {
                if (record instanceof Lease lease) {
                    leases.add(lease);
                } else {
                    AttachedRecord attached = (AttachedRecord) record;
                    KeyState judged = AttachedLiveness.judge(attached,
                            members.get(attached.attachment().member()).join());
                    if (judged instanceof KeyState.Held held) {
                        leases.add(held.lease());
                    }
                }
            }
            return leases;
        });
    }
}
