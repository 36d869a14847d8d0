package io.dagnats.leases.domain;

import java.util.Objects;
import java.util.Optional;

/**
 * Who revoked a lease, as the revoke write names it ({@code Dagnats-Lease-Revoked-By}, ADR-041),
 * so the revoked holder's log and every watcher can say who moved the key, not only why. In
 * identity mode it is the caller's principal, which the NATS server vouched for (ADR-036);
 * otherwise it is what the revoke request's {@code by} field claims ({@code $USER@hostname} from
 * the CLI), a label for people, not an identity. It travels as a header value exactly as given:
 * printable ASCII (space to {@code ~}), neither starting nor ending with a space, long enough for
 * any principal ({@code account/user}).
 */
public record Revoker(String value) {

    public static final int MAX_LENGTH = Account.MAX_LENGTH + 1 + Principal.MAX_USER_LENGTH;

    public Revoker {
        if (value == null) {
            throw new InvalidLeaseInput("by must be a string");
        }
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            throw new InvalidLeaseInput("by must be 1 to " + MAX_LENGTH + " characters long");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < ' ' || c > '~') {
                throw new InvalidLeaseInput("by may hold only printable ASCII characters (space to '~')");
            }
        }
        if (value.charAt(0) == ' ' || value.charAt(value.length() - 1) == ' ') {
            throw new InvalidLeaseInput("by may not start or end with a space");
        }
    }

    /**
     * Who the revoke write names: the principal the server vouched for when there is one (a claim
     * in the request cannot stand in for it), else the request's claim, else nobody.
     */
    public static Optional<Revoker> named(Caller caller, Optional<Revoker> claimed) {
        Objects.requireNonNull(claimed, "claimed");
        if (caller instanceof Caller.Vouched vouched) {
            return Optional.of(new Revoker(vouched.principal().toString()));
        }
        return claimed;
    }

    @Override
    public String toString() {
        return value;
    }
}
