package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseStorage;
import io.dagnats.leases.protocol.LeaseSubjects;

/**
 * The names this adapter speaks to JetStream: the bucket, its stream and its
 * subjects, the {@code $JS} API, and JetStream's own headers. Those are
 * JetStream's names, not dagnats' wire contract, so they live here; the two
 * that the contract defines (where changes are republished, the event header)
 * come from the protocol module.
 */
final class Subjects {
    static final String BUCKET = LeaseStorage.BUCKET;
    static final String STREAM = "KV_leases";
    static final String KEY_PREFIX = "$KV.leases.";
    static final String KEY_WILDCARD = "$KV.leases.>";
    static final String CHANGED_WILDCARD = LeaseSubjects.CHANGED_WILDCARD;
    static final String MESSAGE_GET = "$JS.API.STREAM.MSG.GET." + STREAM;

    static final String HEADER_EVENT = LeaseHeaders.EVENT;
    static final String HEADER_EXPECTED_LAST_SUBJECT_SEQUENCE = "Nats-Expected-Last-Subject-Sequence";
    static final String HEADER_TTL = "Nats-TTL";
    static final String HEADER_MARKER_REASON = "Nats-Marker-Reason";
    static final String HEADER_KV_OPERATION = "KV-Operation";

    private Subjects() {
    }

    /** Safe by construction: a {@link LeaseKey} is exactly one subject token. */
    static String keySubject(LeaseKey key) {
        return KEY_PREFIX + key.value();
    }
}
