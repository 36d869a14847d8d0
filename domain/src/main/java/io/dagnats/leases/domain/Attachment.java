package io.dagnats.leases.domain;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * What ties a key to a member lease (ADR-043): the member's key and the fence that began the
 * member's tenure. The key lives exactly as long as that tenure does; it carries no TTL of its
 * own, so renewing the member keeps every key attached to it at no write per key.
 *
 * @param member       the member lease's key, in the same namespace as the attached key
 * @param memberTenure the tenure start of the member lease the key lives by; a later tenure of the
 *                     same member (released and acquired again) does not keep it
 * @param value        an optional short string stored with the key (a shard set stores a member's
 *                     capacity); at most {@link #MAX_VALUE_BYTES} bytes of UTF-8
 */
public record Attachment(LeaseKey member, Fence memberTenure, Optional<String> value) {

    /** The longest value, in UTF-8 bytes: a hint, not a payload store. */
    public static final int MAX_VALUE_BYTES = 256;

    public Attachment {
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(memberTenure, "memberTenure");
        Objects.requireNonNull(value, "value");
        if (value.isPresent() && value.get().getBytes(StandardCharsets.UTF_8).length > MAX_VALUE_BYTES) {
            throw new InvalidLeaseInput("value must be at most " + MAX_VALUE_BYTES + " bytes of UTF-8");
        }
    }

    /** Whether {@code other} attaches to the same member tenure (the value may differ). */
    public boolean sameMemberTenure(Attachment other) {
        return member.equals(other.member) && memberTenure.equals(other.memberTenure);
    }
}
