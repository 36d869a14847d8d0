package io.dagnats.leases.protocol;

/** The JSON field names of requests and replies. */
final class Fields {
    static final String KEY = "key";
    static final String HOLDER = "holder";
    static final String INCARNATION = "incarnation";
    static final String TENURE = "tenure";
    static final String TTL_MS = "ttl_ms";
    static final String REVISION = "revision";
    static final String PAYLOAD = "payload";
    static final String TIMEOUT_MS = "timeout_ms";
    static final String PREFIX = "prefix";
    static final String PAGE_SIZE = "page_size";
    static final String CURSOR = "cursor";
    static final String REASON = "reason";
    static final String ACCOUNT = "account";
    static final String BY = "by";
    static final String TO_HOLDER = "to_holder";
    static final String TO_INCARNATION = "to_incarnation";
    static final String PRIORITY = "priority";
    static final String VERSION = "version";
    static final String WAITED_MS = "waited_ms";
    static final String STATE = "state";
    static final String CANDIDATES = "candidates";
    static final String HANDED_OVER = "handed_over";
    static final String CHECK = "check";
    // ADR-043: keys attached to a member lease.
    static final String MEMBER = "member";
    static final String MEMBER_TENURE = "member_tenure";
    static final String VALUE = "value";
    static final String TO_MEMBER = "to_member";
    static final String TO_MEMBER_TENURE = "to_member_tenure";
    static final String ATTACHED_TO = "attached_to";

    static final String GRANTED = "granted";
    static final String HELD = "held";
    static final String RELEASED = "released";
    static final String REVOKED = "revoked";
    static final String REVOKED_REVISION = "revoked_revision";
    static final String LEASES = "leases";
    static final String NEXT_CURSOR = "next_cursor";
    static final String ACQUIRED_AT = "acquired_at";
    static final String EXPIRES_AT = "expires_at";
    static final String ERROR = "error";
    static final String KIND = "kind";

    private Fields() {
    }
}
