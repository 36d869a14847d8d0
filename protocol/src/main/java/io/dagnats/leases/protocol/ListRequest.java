package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.KeyPrefix;
import java.util.Objects;
import java.util.Optional;

/**
 * A request for one page of the held leases ({@link Operation#LIST}): what
 * {@link Requests#list} decodes and {@link Requests#encode(ListRequest)} encodes.
 * It is about no single key, so it is no {@link Request}.
 *
 * <p>A listing is a walk: the first page has no cursor, each next one sends the
 * {@code next_cursor} of the reply before it, until a reply has none. A page may
 * hold fewer than {@code pageSize} leases, even none, and still name a next
 * cursor. A key renewed during the walk may come twice: keep the higher revision.
 *
 * @param prefix   only keys that start with it; {@link KeyPrefix#ALL} for every key
 * @param pageSize at most this many leases in the reply, 1 to {@value #MAX_PAGE_SIZE}
 * @param cursor   where to go on from: the previous reply's {@code next_cursor},
 *                 opaque, or empty for the first page
 */
public record ListRequest(KeyPrefix prefix, int pageSize, Optional<String> cursor) {

    public static final int MAX_PAGE_SIZE = 1000;
    /** What the service uses when the request leaves {@code page_size} out. */
    public static final int DEFAULT_PAGE_SIZE = MAX_PAGE_SIZE;
    public static final int MAX_CURSOR_LENGTH = 64;

    public ListRequest {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(cursor, "cursor");
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new InvalidLeaseInput("page_size must be from 1 to " + MAX_PAGE_SIZE);
        }
        cursor.ifPresent(ListRequest::checkCursor);
    }

    /** The first page of every lease whose key starts with {@code prefix}, at most {@code pageSize} of them. */
    public static ListRequest first(KeyPrefix prefix, int pageSize) {
        return new ListRequest(prefix, pageSize, Optional.empty());
    }

    /** The page after the one whose reply named {@code nextCursor}, with this request's prefix and page size. */
    public ListRequest next(String nextCursor) {
        return new ListRequest(prefix, pageSize, Optional.of(nextCursor));
    }

    public Operation operation() {
        return Operation.LIST;
    }

    /** Opaque, but always a short run of {@code [A-Za-z0-9_-]}: safe to log and to echo. */
    private static void checkCursor(String cursor) {
        if (cursor.isEmpty() || cursor.length() > MAX_CURSOR_LENGTH) {
            throw new InvalidLeaseInput("cursor must be 1 to " + MAX_CURSOR_LENGTH
                    + " characters long: send the next_cursor of the previous reply as it was");
        }
        for (int i = 0; i < cursor.length(); i++) {
            char c = cursor.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '-';
            if (!allowed) {
                throw new InvalidLeaseInput("cursor is not one dagnats made:"
                        + " send the next_cursor of the previous reply as it was");
            }
        }
    }
}
