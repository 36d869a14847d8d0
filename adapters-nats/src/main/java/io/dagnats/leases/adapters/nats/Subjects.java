package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseStorage;
import io.dagnats.leases.protocol.LeaseSubjects;
import java.util.Optional;

/**
 * The names this adapter speaks to JetStream: the bucket, its stream and its
 * subjects, the {@code $JS} API, and JetStream's own headers. Those are
 * JetStream's names, not dagnats' wire contract, so they live here; the two
 * that the contract defines (where changes are republished, the event headers)
 * come from the protocol module.
 */
final class Subjects {
    static final String BUCKET = LeaseStorage.BUCKET;
    static final String STREAM = "KV_leases";
    static final String KEY_PREFIX = "$KV.leases.";
    static final String KEY_WILDCARD = "$KV.leases.>";
    static final String CHANGED_WILDCARD = LeaseSubjects.CHANGED_WILDCARD;
    static final String MESSAGE_GET = "$JS.API.STREAM.MSG.GET." + STREAM;
    /** Answered by the stream's leader; its {@code ts} is that server's clock. */
    static final String STREAM_INFO = "$JS.API.STREAM.INFO." + STREAM;
    /** Answered by the leader or, with {@code allow_direct}, any replica: only the listing uses it. */
    static final String DIRECT_GET = "$JS.API.DIRECT.GET." + STREAM;
    /** Where a stream update of the bucket goes (jnats' {@code updateStream}): its metadata records. */
    static final String STREAM_UPDATE = "$JS.API.STREAM.UPDATE." + STREAM;

    static final String HEADER_EVENT = LeaseHeaders.EVENT;
    static final String HEADER_HOLDER = LeaseHeaders.HOLDER;
    static final String HEADER_INCARNATION = LeaseHeaders.INCARNATION;
    static final String HEADER_FENCE = LeaseHeaders.FENCE;
    static final String HEADER_REASON = LeaseHeaders.REASON;
    static final String HEADER_REVOKED_BY = LeaseHeaders.REVOKED_BY;
    static final String HEADER_EXPECTED_LAST_SUBJECT_SEQUENCE = "Nats-Expected-Last-Subject-Sequence";
    static final String HEADER_TTL = "Nats-TTL";
    static final String HEADER_MARKER_REASON = "Nats-Marker-Reason";
    /** The marker reason of a message whose TTL ran out (others mark purges and removals). */
    static final String MARKER_REASON_EXPIRED = "MaxAge";
    static final String HEADER_KV_OPERATION = "KV-Operation";
    /** On a direct get's answer: the stream sequence and the subject of the message. */
    static final String HEADER_SEQUENCE = "Nats-Sequence";
    static final String HEADER_SUBJECT = "Nats-Subject";
    /** On a direct get's answer: the stream that answered (a mirror answers under its own name). */
    static final String HEADER_STREAM = "Nats-Stream";
    static final String HEADER_TIME_STAMP = "Nats-Time-Stamp";
    /**
     * On a batched direct get's end-of-batch status: the last sequence sent, and how many more match.
     * On a republished change event: the sequence of the subject's message before it (on an
     * expiry marker, the message the server removed).
     */
    static final String HEADER_LAST_SEQUENCE = "Nats-Last-Sequence";
    static final String HEADER_NUM_PENDING = "Nats-Num-Pending";

    private Subjects() {
    }

    /**
     * The key a stored subject names, when it is {@code $KV.leases.<one valid key token>}, or in
     * identity mode (ADR-036) {@code $KV.leases.<account token>.<key token>}.
     */
    static Optional<LeaseKey> keyOf(String subject) {
        return keyAfter(KEY_PREFIX, subject);
    }

    /** The key a change event's subject names: {@link LeaseSubjects#CHANGED_PREFIX} and the key, or the account and the key. */
    static Optional<LeaseKey> keyOfChange(String subject) {
        return keyAfter(LeaseSubjects.CHANGED_PREFIX, subject);
    }

    private static Optional<LeaseKey> keyAfter(String prefix, String subject) {
        if (subject == null || !subject.startsWith(prefix)) {
            return Optional.empty();
        }
        String rest = subject.substring(prefix.length());
        int dot = rest.indexOf('.');
        try {
            return Optional.of(dot < 0 ? new LeaseKey(rest)
                    : LeaseKey.in(new Account(rest.substring(0, dot)), rest.substring(dot + 1)));
        } catch (IllegalArgumentException notAKey) {
            return Optional.empty();
        }
    }

    /**
     * Safe by construction: a {@link LeaseKey} is exactly one subject token, and so is its
     * account, which comes first in identity mode: account A's {@code k} is {@code $KV.leases.A.k}.
     */
    static String keySubject(LeaseKey key) {
        return KEY_PREFIX + key.account().map(account -> account.value() + ".").orElse("") + key.value();
    }

    /** Every stored key of one namespace: the whole bucket's {@link #KEY_WILDCARD} when empty. */
    static String keyWildcard(Optional<Account> namespace) {
        return namespace.map(account -> KEY_PREFIX + account.value() + ".>").orElse(KEY_WILDCARD);
    }
}
