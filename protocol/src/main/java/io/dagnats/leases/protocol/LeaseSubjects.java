package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;

/**
 * The subjects of the wire contract and the micro service they belong to. Keys
 * and holder ids are exactly one subject token by construction, so none of these
 * can gain a token or a wildcard from a caller's input.
 */
public final class LeaseSubjects {

    /** The NATS micro service every lease endpoint belongs to ({@code $SRV.PING} finds it). */
    public static final String SERVICE_NAME = "dagnats-api";
    /** Every lease endpoint's queue group: exactly one dagnats instance answers each request. */
    public static final String QUEUE_GROUP = "dagnats-leases";
    /** The endpoints' subjects are this and the {@linkplain Operation operation} name. */
    public static final String API_PREFIX = "api.leases.";
    /** Change events: one per stored message, on this and the key. */
    public static final String CHANGED_PREFIX = "dagnats.lease.changed.";
    public static final String CHANGED_WILDCARD = CHANGED_PREFIX + ">";
    /** Owners' inboxes: this, the holder id, a dot, and the key. */
    public static final String INBOX_PREFIX = "dagnats.lease.inbox.";
    /** An owner's inbox with its variable parts named, as telemetry names the destination (low in cardinality). */
    public static final String INBOX_TEMPLATE = INBOX_PREFIX + "{holder}.{key}";

    private LeaseSubjects() {
    }

    /** Where the changes of one key are published. */
    public static String changed(LeaseKey key) {
        return CHANGED_PREFIX + key.value();
    }

    /** The owner's inbox for one key, which dagnats' forward requests. */
    public static String inbox(HolderId holder, LeaseKey key) {
        return INBOX_PREFIX + holder.value() + "." + key.value();
    }

    /** Every inbox of one holder: what a holder that serves forwards subscribes to. */
    public static String inboxes(HolderId holder) {
        return INBOX_PREFIX + holder.value() + ".>";
    }

    /**
     * What follows {@code holder}'s inbox prefix in {@code subject}: the key's token
     * on a subject {@link #inboxes} matched (which may still not be a valid key).
     *
     * @throws IllegalArgumentException when {@code subject} is not one of the holder's inboxes
     */
    public static String inboxTail(HolderId holder, String subject) {
        String prefix = INBOX_PREFIX + holder.value() + ".";
        if (!subject.startsWith(prefix)) {
            throw new IllegalArgumentException(subject + " is not an inbox of " + holder);
        }
        return subject.substring(prefix.length());
    }
}
