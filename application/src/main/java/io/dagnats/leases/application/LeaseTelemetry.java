package io.dagnats.leases.application;

import java.util.Map;
import java.util.function.Supplier;

/**
 * What the service reports about its own work: a record (a trace span and
 * metrics, in the OpenTelemetry adapter) for every lease request, with the
 * JetStream reads and writes and each forward attempt under it. No telemetry
 * type crosses this port; trace context travels as the W3C header map.
 *
 * <p>Implementations never throw and never block: telemetry must not break or
 * slow a lease request.
 */
public interface LeaseTelemetry {

    /** Reports nothing, and costs next to nothing. */
    LeaseTelemetry NONE = new LeaseTelemetry() {
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
        public LeaseStore observe(LeaseStore store) {
            return store;
        }

        @Override
        public OwnerInbox observe(OwnerInbox inbox) {
            return inbox;
        }
    };

    /**
     * Starts the record of one lease request.
     *
     * @param operation acquire, renew, release, owner, forward
     * @param subject   the subject it arrived on
     * @param headers   the request's headers that carry trace context ({@code traceparent},
     *                  {@code tracestate}); empty when it had none
     */
    RequestRecord startRequest(String operation, String subject, Map<String, String> headers);

    /** Headers that carry the current trace context into a request this process makes; empty when none. */
    Map<String, String> outgoingHeaders();

    /** Whether the server can serve leases, as learned at start. */
    void leasesSupported(boolean supported);

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
     * What a request came to.
     *
     * @param outcome   granted, held, renewed, released, free, delivered, or the error kind
     * @param errorKind the wire error kind when the request failed, else null
     * @param key       the lease key when the request named a valid one, else null
     * @param holder    the holder the answer names, else null
     * @param revision  the fence the answer names, else 0
     */
    record Facts(String outcome, String errorKind, String key, String holder, long revision) {
    }
}
