package io.dagnats.leases.application;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the service reports about its own work: a record (a trace span and
 * metrics, in the OpenTelemetry adapter) for every lease request, with the
 * JetStream reads and writes and each forward attempt under it. No telemetry
 * type crosses this port; trace context travels as the W3C header map.
 *
 * <p>Implementations never throw and never block: telemetry must not break or
 * slow a lease request. A fault of their own is theirs to report (once), not
 * the caller's to handle.
 */
public interface LeaseTelemetry {

    /** Reports nothing, and costs nothing: a caller that sees {@link #records()} false skips it. */
    LeaseTelemetry NONE = new LeaseTelemetry() {
        @Override
        public boolean records() {
            return false;
        }

        @Override
        public RequestRecord startRequest(String operation, String subject, Map<String, String> headers) {
            return RequestRecord.NONE;
        }

        @Override
        public Map<String, String> outgoingHeaders() {
            return Map.of();
        }

        @Override
        public void leasesSupported(boolean supported) {
        }

        @Override
        public void expired(LeaseKey key, Fence lastRevision) {
        }

        @Override
        public void census(LeaseCensus.Count count) {
        }

        @Override
        public LeaseStore observe(LeaseStore store) {
            return store;
        }

        @Override
        public OwnerInbox observe(OwnerInbox inbox) {
            return inbox;
        }
    };

    /**
     * Whether this records anything. When false, a caller may skip what it does only for
     * telemetry (reading trace headers, starting a record, running work within it): every
     * method would do nothing anyway.
     */
    default boolean records() {
        return true;
    }

    /**
     * Starts the record of one lease request.
     *
     * @param operation acquire, renew, release, owner, forward, list, revoke, handover, candidates
     * @param subject   the subject it arrived on
     * @param headers   the request's headers that carry trace context ({@code traceparent},
     *                  {@code tracestate}); empty when it had none
     */
    RequestRecord startRequest(String operation, String subject, Map<String, String> headers);

    /** Headers that carry the current trace context into a request this process makes; empty when none. */
    Map<String, String> outgoingHeaders();

    /** Whether the server can serve leases, as learned at start. */
    void leasesSupported(boolean supported);

    /**
     * The server removed the last message of {@code key} because its TTL ran out, as a change
     * event (an expiry marker) told. {@code lastRevision} is the revision of the message it
     * removed: a lease, or a release's or revoke's tombstone, whose own expiry is marked too.
     * Every instance is told of every expiry; the one that wrote that lease counts it.
     */
    void expired(LeaseKey key, Fence lastRevision);

    /** The latest census of the bucket: reported until the next one succeeds. */
    void census(LeaseCensus.Count count);

    /** The store, with each read and write recorded under the request that made it. */
    LeaseStore observe(LeaseStore store);

    /** The owner inbox, with each forward attempt recorded under the request that made it. */
    OwnerInbox observe(OwnerInbox inbox);

    /** The record of one request, from receipt to reply. */
    interface RequestRecord {

        RequestRecord NONE = new RequestRecord() {
            @Override
            public <T> T within(Supplier<T> work) {
                return work.get();
            }

            @Override
            public void end(Facts facts) {
            }
        };

        /** Runs {@code work} with this request current, so what it starts is recorded under it. */
        <T> T within(Supplier<T> work);

        /** The request was answered. Called once. */
        void end(Facts facts);
    }

    /**
     * What a request came to, for its record: one of three shapes, so no field is
     * null and no 0 stands for "none". Made once per request from values the
     * answer already holds: a lease answer costs one small object, as before.
     */
    sealed interface Facts permits Facts.Answered, Facts.Free, Facts.Listed, Facts.Failed {

        /** A lease answer: the key, and the holder and fence the reply names. */
        record Answered(Result result, LeaseKey key, HolderId holder, Fence fence) implements Facts {

            public Answered {
                Objects.requireNonNull(result, "result");
                Objects.requireNonNull(key, "key");
                Objects.requireNonNull(holder, "holder");
                Objects.requireNonNull(fence, "fence");
            }

            /** The answer names {@code lease}. */
            public static Answered of(Result result, Lease lease) {
                return new Answered(result, lease.key(), lease.holder(), lease.revision());
            }
        }

        /** An owner query (or a revoke) for a key nobody holds. */
        record Free(LeaseKey key) implements Facts {

            public Free {
                Objects.requireNonNull(key, "key");
            }
        }

        /** A page of a listing, with {@code leases} in it; or a key's candidates, that many of them. */
        record Listed(int leases) implements Facts {
        }

        /**
         * An error reply.
         *
         * @param key       the key, when the request named a valid one and got that far
         * @param lastTried the lease a forward last tried to deliver under, when it tried one
         */
        record Failed(ErrorKind kind, Optional<LeaseKey> key, Optional<Lease> lastTried) implements Facts {

            public Failed {
                Objects.requireNonNull(kind, "kind");
                Objects.requireNonNull(key, "key");
                Objects.requireNonNull(lastTried, "lastTried");
            }

            /** Failed before (or without) naming a key: bad input, the bucket refused, a bug. */
            public static Failed bare(ErrorKind kind) {
                return new Failed(kind, Optional.empty(), Optional.empty());
            }
        }

        /** How a request that got a lease answer ended. */
        enum Result {
            GRANTED, HELD, RENEWED, RELEASED, DELIVERED,
            /** An operator's revoke ended the lease the facts name (its holder and fence). */
            REVOKED,
            /** The owner handed the lease to the successor the facts name, at its new fence (ADR-042). */
            HANDED_OVER
        }
    }
}
