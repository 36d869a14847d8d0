package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.holder.internal.Scheduler;
import java.util.Optional;

/**
 * This member's capacity key ({@code <set>-capacity-<holder>}, ADR-044), attached to its member
 * lease once per member tenure so that every member plans with its capacity, and detached first
 * when it leaves, so that no member targets it any more. Loop only.
 */
final class CapacityKey {

    /** The capacity key's attachment: its revision and the member tenure it was granted under. */
    private record Attachment(Fence revision, Fence memberTenure) {
    }

    private final ShardKeys keys;
    private final HolderId me;
    private final int capacity;
    private final ShardCalls calls;
    private final Scheduler loop;
    private final Runnable seen;
    private Optional<Attachment> attached = Optional.empty();
    private boolean asked;

    /** @param seen run on the loop once attached: the set looks afresh, to see itself with its capacity */
    CapacityKey(ShardKeys keys, HolderId me, int capacity, ShardCalls calls, Scheduler loop, Runnable seen) {
        this.keys = keys;
        this.me = me;
        this.capacity = capacity;
        this.calls = calls;
        this.loop = loop;
        this.seen = seen;
    }

    /** Attaches the capacity key to the member lease at {@code tenure}, once per tenure. */
    void announce(Fence tenure) {
        if (attached.filter(known -> known.memberTenure().equals(tenure)).isPresent() || asked) {
            return;
        }
        asked = true;
        calls.attach(keys.capacity(me), keys.member(me), tenure, Optional.of(Integer.toString(capacity)))
                .whenComplete((answer, failure) -> loop.execute(() -> {
                    asked = false;
                    if (answer instanceof ShardCalls.Attached.Granted granted) {
                        attached = Optional.of(new Attachment(granted.revision(), granted.memberTenure()));
                        seen.run();
                    }
                }));
    }

    /** Leaving: detaches it, so that no member targets this one any more. */
    void withdraw() {
        attached.ifPresent(known -> calls.detach(keys.capacity(me), known.revision()));
    }
}
