package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;

/** Every subject and header name of the wire contract, in one place. */
final class Subjects {
    static final String BUCKET = "leases";
    static final String STREAM = "KV_leases";
    static final String KEY_PREFIX = "$KV.leases.";
    static final String KEY_WILDCARD = "$KV.leases.>";
    static final String CHANGED_WILDCARD = "dagnats.lease.changed.>";
    static final String MESSAGE_GET = "$JS.API.STREAM.MSG.GET." + STREAM;

    static final String SERVICE_NAME = "dagnats-api";
    static final String QUEUE_GROUP = "dagnats-leases";
    static final String API_PREFIX = "api.leases.";

    static final String HEADER_EVENT = "Dagnats-Lease-Event";
    static final String HEADER_EXPECTED_LAST_SUBJECT_SEQUENCE = "Nats-Expected-Last-Subject-Sequence";
    static final String HEADER_TTL = "Nats-TTL";
    static final String HEADER_MARKER_REASON = "Nats-Marker-Reason";
    static final String HEADER_KV_OPERATION = "KV-Operation";
    static final String HEADER_FENCE = "Dagnats-Lease-Fence";
    static final String HEADER_REJECT = "Dagnats-Lease-Reject";
    static final String INBOX_PREFIX = "dagnats.lease.inbox.";

    private Subjects() {
    }

    /** Safe by construction: a {@link LeaseKey} is exactly one subject token. */
    static String keySubject(LeaseKey key) {
        return KEY_PREFIX + key.value();
    }

    /** The owner's inbox for one key; both parts are single tokens by construction. */
    static String inbox(HolderId holder, LeaseKey key) {
        return INBOX_PREFIX + holder.value() + "." + key.value();
    }
}
