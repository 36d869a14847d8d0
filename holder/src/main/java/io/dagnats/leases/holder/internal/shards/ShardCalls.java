package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The calls a shard set makes about keys attached to its member lease (ADR-043), as this holder
 * (its id and incarnation): what a set needs, named for what it means, so the set's rules are
 * tested without a server. A failed future is a call whose outcome is unknown (timeout, no
 * responder): the set treats the key as if the write may have happened.
 */
interface ShardCalls {

    /** Attaches {@code key} to this holder's member lease {@code member} at tenure {@code memberTenure}. */
    CompletableFuture<Attached> attach(LeaseKey key, LeaseKey member, Fence memberTenure, Optional<String> value);

    /** Detaches {@code key}, this holder's at {@code revision}: it is free afterwards. */
    CompletableFuture<Boolean> detach(LeaseKey key, Fence revision);

    /** Moves {@code key}, this holder's at {@code revision}, to {@code to}'s member lease at its tenure. */
    CompletableFuture<Moved> move(LeaseKey key, Fence revision, Target to);

    /** The member a key is moved to: its holder, incarnation, member key and the tenure that key is at. */
    record Target(HolderId holder, Optional<Incarnation> incarnation, LeaseKey member, Fence memberTenure) {
    }

    /** What an attach answered. */
    sealed interface Attached {
        /** The key is attached to the member at {@code memberTenure}, at {@code revision} (its fence). */
        record Granted(Fence revision, Fence memberTenure) implements Attached {
        }

        /** Someone else holds it. */
        record HeldByOther(HolderId holder) implements Attached {
        }

        /** The member lease is not this holder's at that tenure: nothing was written. */
        record MemberLost() implements Attached {
        }
    }

    /** What a move answered. */
    sealed interface Moved {
        /** The key is the target's now, at {@code revision}. */
        record Done(Fence revision) implements Moved {
        }

        /** The key was not this holder's at that revision: nothing was written. */
        record Lost() implements Moved {
        }

        /** The target's member lease is not live at that tenure: nothing was written. */
        record NoSuccessor() implements Moved {
        }
    }
}
