package io.dagnats.leases.protocol;

/**
 * The endpoints of the {@code dagnats-api} service: the lease operations a
 * holder or caller uses (the guide's five; handover and candidates of ADR-042; attach, detach and move
 * of ADR-043), and the two an operator uses ({@link #isOperator()}).
 */
public enum Operation {
    ACQUIRE("acquire"),
    RENEW("renew"),
    RELEASE("release"),
    OWNER("owner"),
    FORWARD("forward"),
    /** A page of the held leases ({@link ListRequest}); the one operation about no single key. */
    LIST("list"),
    /** Frees a key over its holder's head ({@link Request.Revoke}). */
    REVOKE("revoke"),
    /** The owner hands its lease to a named, waiting successor in one compare-and-set ({@link Request.Handover}). */
    HANDOVER("handover"),
    /** Who waits for a key right now, asked live ({@link Request.Candidates}). */
    CANDIDATES("candidates"),
    /** Attaches a key to the caller's member lease (ADR-043): it lives by that lease, with no TTL of its own. */
    ATTACH("attach"),
    /** Frees the caller's attached key ({@link Request.Detach}). */
    DETACH("detach"),
    /** Attaches the caller's key to a successor's member lease in one write ({@link Request.Move}). */
    MOVE("move");

    private final String endpointName;
    private final String subject;

    Operation(String endpointName) {
        this.endpointName = endpointName;
        this.subject = LeaseSubjects.API_PREFIX + endpointName;
    }

    /** The endpoint's name in the service ({@code acquire}); also what telemetry calls the operation. */
    public String endpointName() {
        return endpointName;
    }

    /** The subject callers request ({@code api.leases.acquire}). */
    public String subject() {
        return subject;
    }

    /**
     * Whether this is an operator's endpoint (list, revoke), which a deployment
     * allows to operators only, not to every holder.
     */
    public boolean isOperator() {
        return this == LIST || this == REVOKE;
    }

    /**
     * Whether its request may carry {@code account}, the namespace of the key it names: only owner,
     * revoke and candidates, and only in identity mode (ADR-036). Elsewhere the field names nothing and is
     * refused as unknown. (Designed, not built: {@code account} on list.)
     */
    public boolean takesAccount() {
        return this == OWNER || this == REVOKE || this == CANDIDATES;
    }

    /**
     * Whether its request may carry the fields of keys attached to a member lease (ADR-043:
     * {@code member}, {@code member_tenure}, {@code value}, {@code to_*}): only attach, detach and move.
     * On the guide's subjects they stay unknown fields, refused as before, so the guide's rules do not change.
     */
    public boolean takesAttachment() {
        return this == ATTACH || this == DETACH || this == MOVE;
    }
}
