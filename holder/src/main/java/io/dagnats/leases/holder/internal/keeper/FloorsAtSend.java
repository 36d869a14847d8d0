package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.internal.FenceFloors;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The floor each of a keeper's answers is judged against ({@link EventTime#floor()}): the key's
 * grant floor as its request was sent, with the fences confirmed since, never the writes of
 * others heard since.
 *
 * <p>Why: revisions only grow, so another's write heard before a request was sent, and then
 * answered at or below, is the store having come back without it. One heard after the send may
 * simply have come after this request's write (an operator's revoke of the renewed lease, the
 * lease's expiry): its event is published by the server at once, the answer is dagnats' reply,
 * and the floors hear events on the subscription's thread while the answer waits in the
 * keeper's queue. Judged by it, an ordinary revoke reads as the store going back: the owner stops
 * as {@code STORE_WENT_BACK}, and the keeper presents a revision the stream never issued, which
 * dagnats takes for the proof of a rollback (above its last sequence) and skips every fence up.
 * That write's own event, handled next in order, ends what it ended ({@link KeeperRules}).
 */
final class FloorsAtSend {

    private final FenceFloors floors;
    private final LeaseKey key;
    /** Per call sent and not yet answered, the key's grant floor at its send. */
    private final Map<Long, Optional<Fence>> atSend = new ConcurrentHashMap<>();

    FloorsAtSend(FenceFloors floors, LeaseKey key) {
        this.floors = floors;
        this.key = key;
    }

    /** Call {@code call} is being sent now. */
    void sent(long call) {
        atSend.put(call, floors.grantFloor(key));
    }

    /** The floor {@code event} is judged against: as its call was sent, for an answer; as it is now, else. */
    Optional<Fence> judging(KeeperEvent event) {
        long call = event instanceof KeeperEvent.AcquireAnswered answered ? answered.call()
                : event instanceof KeeperEvent.RenewAnswered answered ? answered.call()
                : event instanceof KeeperEvent.CallFailed failed ? failed.call() : -1L;
        Optional<Fence> sent = call == -1L ? null : atSend.remove(call);
        if (sent == null) {
            return floors.grantFloor(key);
        }
        Optional<Fence> confirmed = floors.floor(key);
        return sent.isEmpty() ? confirmed : Optional.of(confirmed.filter(sent.get()::isBelow).orElse(sent.get()));
    }
}
