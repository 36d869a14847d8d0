package io.dagnats.leases.domain;

import java.util.Objects;
import java.util.Optional;

/**
 * Who the NATS server says is calling, in identity mode (ADR-036): the caller's account and,
 * when the account's import of the lease service shares it ({@code share: true}), its user.
 * Without a user every user of the account is one principal. Compared exactly: a lease taken
 * by one principal is another holder's to every other.
 *
 * @param user the NATS user name: 1 to 256 printable ASCII characters, or empty when not shared
 */
public record Principal(Account account, Optional<String> user) {

    static final int MAX_USER_LENGTH = 256;

    public Principal {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(user, "user");
        user.ifPresent(Principal::requireUser);
    }

    public static Principal of(Account account) {
        return new Principal(account, Optional.empty());
    }

    public static Principal of(Account account, String user) {
        return new Principal(account, Optional.of(user));
    }

    private static void requireUser(String user) {
        if (user.isEmpty() || user.length() > MAX_USER_LENGTH) {
            throw new InvalidLeaseInput("a user name must be 1 to " + MAX_USER_LENGTH + " characters long");
        }
        for (int i = 0; i < user.length(); i++) {
            char c = user.charAt(i);
            if (c < ' ' || c > '~') {
                throw new InvalidLeaseInput("a user name may hold only printable ASCII characters");
            }
        }
    }

    /** {@code account} or {@code account/user}: for messages and logs. */
    @Override
    public String toString() {
        return user.map(name -> account + "/" + name).orElse(account.value());
    }
}
