package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.ErrorKind;
import java.util.Optional;

/** How each {@link ErrorKind} is spelled in the {@code kind} field of an error reply. */
public final class Kinds {

    private Kinds() {
    }

    /** The wire name; a switch without default, so a new kind does not compile until it has one. */
    public static String wireName(ErrorKind kind) {
        return switch (kind) {
            case INVALID -> "invalid";
            case FORBIDDEN -> "forbidden";
            case LOST -> "lost";
            case UNSUPPORTED -> "unsupported";
            case UNAVAILABLE -> "unavailable";
            case INTERNAL -> "internal";
            case NO_OWNER -> "no_owner";
            case OWNER_UNAVAILABLE -> "owner_unavailable";
            case OWNER_REJECTED -> "owner_rejected";
            case OWNER_TIMEOUT -> "owner_timeout";
            case REPLY_TOO_LARGE -> "reply_too_large";
            case NO_SUCCESSOR -> "no_successor";
        };
    }

    /** The kind a wire name stands for; empty for a name this contract does not have. */
    public static Optional<ErrorKind> fromWireName(String name) {
        for (ErrorKind kind : ErrorKind.values()) {
            if (wireName(kind).equals(name)) {
                return Optional.of(kind);
            }
        }
        return Optional.empty();
    }
}
