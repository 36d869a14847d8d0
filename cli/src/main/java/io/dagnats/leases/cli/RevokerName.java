package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Revoker;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Who {@code leases revoke} says revokes when not told ({@code --by}): {@code $USER@hostname}, so a
 * revoked holder's log names the person and machine to ask (ADR-041). With identity mode on the
 * service names the caller's principal instead and ignores this claim.
 */
final class RevokerName {

    private RevokerName() {
    }

    /** {@code $USER@hostname} of this process; empty when neither is known. */
    static Optional<Revoker> ofThisUser() {
        String user = Optional.ofNullable(System.getenv("USER")).orElse(System.getProperty("user.name", ""));
        return of(user, hostname());
    }

    /**
     * {@code user@host}, or whichever is known, made a header value: characters a header cannot carry
     * become {@code ?}, the ends are trimmed, and it is cut to the longest a revoker may be.
     */
    static Optional<Revoker> of(String user, String host) {
        String named = user.isBlank() ? host : host.isBlank() ? user : user + "@" + host;
        StringBuilder printable = new StringBuilder(named.length());
        named.chars().forEach(c -> printable.append(c >= ' ' && c <= '~' ? (char) c : '?'));
        String value = printable.toString().strip();
        if (value.length() > Revoker.MAX_LENGTH) {
            value = value.substring(0, Revoker.MAX_LENGTH).strip();
        }
        return value.isEmpty() ? Optional.empty() : Optional.of(new Revoker(value));
    }

    private static String hostname() {
        String host = System.getenv("HOSTNAME");
        if (host != null && !host.isBlank()) {
            return host;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException unknown) {
            return "";
        }
    }
}
