package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Claimant;
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
    /**
     * The inboxes of one process of a holder that sent an incarnation: this, the holder id, the
     * incarnation, and the key (ADR-034). Outside {@link #INBOX_PREFIX}, so a process subscribed
     * to the holder id's plain inboxes (another process under the same id, a holder that does
     * not send incarnations) never receives a forward meant for this one, and "no responders"
     * stays proof that the process the lease names is not there.
     */
    public static final String INCARNATION_PREFIX = "dagnats.lease.incarnation.";
    /** A process's inbox with its variable parts named, as telemetry names the destination. */
    public static final String INCARNATION_TEMPLATE = INCARNATION_PREFIX + "{holder}.{incarnation}.{key}";

    /**
     * Candidates (ADR-042): every process waiting for a key (and its owner) answers a request on this
     * and the key with what makes it preferable; nothing is stored, so a candidate is gone the moment
     * its process stops waiting.
     */
    public static final String CANDIDATES_PREFIX = "dagnats.lease.candidates.";
    /**
     * The targeted check before a handover (ADR-042): this, the holder id, a dot, and the key. A
     * holder process answers here only while it waits for the key under the incarnation asked for.
     */
    public static final String CANDIDATE_PREFIX = "dagnats.lease.candidate.";

    /**
     * Identity mode (ADR-036): dagnats' account reaches an application account's inboxes under
     * this, the account, a dot and the inbox subject the owner subscribes to; each application
     * account exports its inboxes to dagnats' account, which imports them under this prefix.
     */
    public static final String ROUTE_PREFIX = "dagnats.route.";

    private LeaseSubjects() {
    }

    /**
     * Where dagnats sends a request for {@code inbox}, the subject the owner of {@code key} listens
     * on: that subject itself with identity mode off, and the route into the key's account with it on.
     */
    public static String route(LeaseKey key, String inbox) {
        return key.account().map(account -> ROUTE_PREFIX + account.value() + "." + inbox).orElse(inbox);
    }

    /** Where every candidate for {@code key} answers a gathering request ({@code api.leases.candidates}). */
    public static String candidates(LeaseKey key) {
        return CANDIDATES_PREFIX + key.value();
    }

    /** Where {@code holder} answers whether it waits for {@code key}, asked before a handover to it. */
    public static String candidate(HolderId holder, LeaseKey key) {
        return CANDIDATE_PREFIX + holder.value() + "." + key.value();
    }

    /** Every targeted check of one holder: what a holder process with candidacy subscribes to. */
    public static String candidateChecks(HolderId holder) {
        return CANDIDATE_PREFIX + holder.value() + ".>";
    }

    /**
     * What follows {@code holder}'s candidate prefix in {@code subject}: the key's token on a subject
     * {@link #candidateChecks} matched (which may still not be a valid key).
     *
     * @throws IllegalArgumentException when {@code subject} is not one of the holder's candidate checks
     */
    public static String candidateTail(HolderId holder, String subject) {
        String prefix = CANDIDATE_PREFIX + holder.value() + ".";
        if (!subject.startsWith(prefix)) {
            throw new IllegalArgumentException(subject + " is not a candidate check of " + holder);
        }
        return subject.substring(prefix.length());
    }

    /** Where the changes of one key are published. */
    public static String changed(LeaseKey key) {
        return CHANGED_PREFIX + key.value();
    }

    /** The owner's inbox for one key, which dagnats' forward requests, of a holder that sent no incarnation. */
    public static String inbox(HolderId holder, LeaseKey key) {
        return INBOX_PREFIX + holder.value() + "." + key.value();
    }

    /** The inbox for one key of the process {@code owner} names: its incarnation's, when it has one. */
    public static String inbox(Claimant owner, LeaseKey key) {
        return owner.incarnation().map(incarnation -> INCARNATION_PREFIX + owner.holder().value() + "."
                + incarnation.value() + "." + key.value()).orElseGet(() -> inbox(owner.holder(), key));
    }

    /** The name of {@code owner}'s inbox as telemetry gives it: {@link #INBOX_TEMPLATE} or {@link #INCARNATION_TEMPLATE}. */
    public static String inboxTemplate(Claimant owner) {
        return owner.incarnation().isPresent() ? INCARNATION_TEMPLATE : INBOX_TEMPLATE;
    }

    /** Every inbox of one holder: what a holder that serves forwards subscribes to. */
    public static String inboxes(HolderId holder) {
        return INBOX_PREFIX + holder.value() + ".>";
    }

    /** Every inbox of the process {@code self} names: what it subscribes to, to serve forwards. */
    public static String inboxes(Claimant self) {
        return self.incarnation().map(incarnation -> INCARNATION_PREFIX + self.holder().value() + "."
                + incarnation.value() + ".>").orElseGet(() -> inboxes(self.holder()));
    }

    /**
     * What follows {@code self}'s inbox prefix in {@code subject}: the key's token on a subject
     * {@link #inboxes(Claimant)} matched (which may still not be a valid key).
     *
     * @throws IllegalArgumentException when {@code subject} is not one of its inboxes
     */
    public static String inboxTail(Claimant self, String subject) {
        String wildcard = inboxes(self);
        String prefix = wildcard.substring(0, wildcard.length() - 1);
        if (!subject.startsWith(prefix)) {
            throw new IllegalArgumentException(subject + " is not an inbox of " + self);
        }
        return subject.substring(prefix.length());
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
