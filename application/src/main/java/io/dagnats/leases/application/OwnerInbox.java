package io.dagnats.leases.application;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.LeaseKey;
import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * The inbox of whichever process holds a key: one request, fenced with the
 * lease revision it was sent under, and naming the incarnation the lease names (when it names
 * one), so that only that process of the holder id answers. The stage never fails for anything the
 * owner did; every such outcome is a {@link Delivery}. It fails with
 * {@link LeaseFailure} only when this side cannot send at all.
 */
@FunctionalInterface
public interface OwnerInbox {

    CompletionStage<Delivery> deliver(LeaseKey key, Claimant owner, Fence fence, byte[] payload, Duration timeout);

    /** What became of one delivery. */
    sealed interface Delivery {

        /** The owner processed the request and answered {@code body}. */
        record Replied(byte[] body) implements Delivery {
        }

        /**
         * Nobody subscribes to the owner's inbox: the request was not processed. Only
         * for proof from the server that nobody received it, never inferred from a
         * missing answer.
         */
        record NoResponders() implements Delivery {
        }

        /** The owner refused the fence ({@code Dagnats-Lease-Reject}) and did not process the request. */
        record Rejected() implements Delivery {
        }

        /**
         * No answer in time, however the wait ended (the deadline, the client library
         * giving up on the request, the connection closing): the owner may or may not
         * have processed the request.
         */
        record TimedOut() implements Delivery {
        }
    }
}
