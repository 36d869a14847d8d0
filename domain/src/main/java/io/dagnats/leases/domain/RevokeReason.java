package io.dagnats.leases.domain;

/**
 * Why an operator revoked a lease: a sentence that travels in a header of the
 * revoke write ({@code Dagnats-Lease-Reason}) and in the service's log. 1 to 200
 * printable ASCII characters (space to {@code ~}), neither starting nor ending
 * with a space, so it is a header value exactly as given: no control
 * character, line break or byte a header could not carry or would trim.
 */
public record RevokeReason(String value) {

    public static final int MAX_LENGTH = 200;

    public RevokeReason {
        if (value == null) {
            throw new InvalidLeaseInput("reason is required");
        }
        if (value.isEmpty() || value.length() > MAX_LENGTH) {
            throw new InvalidLeaseInput("reason must be 1 to " + MAX_LENGTH + " characters long");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < ' ' || c > '~') {
                throw new InvalidLeaseInput("reason may hold only printable ASCII characters (space to '~')");
            }
        }
        if (value.charAt(0) == ' ' || value.charAt(value.length() - 1) == ' ') {
            throw new InvalidLeaseInput("reason may not start or end with a space");
        }
    }

    @Override
    public String toString() {
        return value;
    }
}
