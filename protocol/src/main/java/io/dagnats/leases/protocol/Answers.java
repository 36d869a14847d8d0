package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The normal answers of the lease and operator subjects, as a client reads them
 * ({@link Replies}). Every other reply is a {@link DagnatsException}.
 */
public final class Answers {

    private Answers() {
    }

    /** acquire: granted (the caller holds the key) or held by another holder. */
    public sealed interface Acquire {
        LeaseView lease();

        record Granted(LeaseView lease) implements Acquire {
        }

        record HeldByOther(LeaseView lease) implements Acquire {
        }
    }

    /** renew: renewed under a new fence, or lost (stop acting as owner now). */
    public sealed interface Renew {
        record Renewed(LeaseView lease) implements Renew {
        }

        record Lost(String reason) implements Renew {
        }
    }

    /** release: released by a write with {@code revision}, or lost. */
    public sealed interface Release {
        record Released(LeaseKey key, HolderId holder, Fence revision) implements Release {
        }

        record Lost(String reason) implements Release {
        }
    }

    /** attach (ADR-043): granted or held by another, as an acquire; or lost when the member lease is not the caller's. */
    public sealed interface Attach {
        record Granted(LeaseView lease) implements Attach {
        }

        record HeldByOther(LeaseView lease) implements Attach {
        }

        record Lost(String reason) implements Attach {
        }
    }

    /** move (ADR-043): moved (the view names the successor, at the key's new fence), lost, or no live successor. */
    public sealed interface Move {
        record Moved(LeaseView lease) implements Move {
        }

        record Lost(String reason) implements Move {
        }

        record NoSuccessor(String reason) implements Move {
        }
    }

    /** owner: held (by whom) or free. */
    public sealed interface Owner {
        record Held(LeaseView lease) implements Owner {
        }

        record Free(LeaseKey key) implements Owner {
        }
    }

    /** forward: the owner's reply, or why there was none. */
    public sealed interface Forward {

        /** The owner {@code holder} answered a request fenced with {@code revision}. */
        record Answered(HolderId holder, Fence revision, byte[] reply) implements Forward {
        }

        /**
         * No reply: {@code kind} is {@link ErrorKind#NO_OWNER}, {@link ErrorKind#OWNER_UNAVAILABLE},
         * {@link ErrorKind#OWNER_REJECTED}, {@link ErrorKind#OWNER_TIMEOUT} or
         * {@link ErrorKind#REPLY_TOO_LARGE}; {@code holder} and {@code revision} name the
         * owner last tried, when there was one.
         */
        record NotAnswered(ErrorKind kind, String reason, Optional<HolderId> holder, Optional<Fence> revision)
                implements Forward {
        }
    }

    /**
     * list: one page of held leases, in no promised order, and where to go on from
     * when there may be more. A page may hold fewer leases than asked for, even
     * none, and still have a next cursor; a key renewed during a walk may come
     * twice (keep the higher revision).
     *
     * @param nextCursor the cursor of the next page; empty when the walk is over
     */
    public record Listing(List<LeaseView> leases, Optional<String> nextCursor) {
        public Listing {
            leases = List.copyOf(leases);
            Objects.requireNonNull(nextCursor, "nextCursor");
        }
    }

    /** revoke: revoked, the key was free, or the revision named is not the current fence. */
    public sealed interface Revoke {
        LeaseKey key();

        /**
         * The key is free: {@code holder}'s lease under {@code revokedRevision} ended by a write
         * whose revision is {@code revision}.
         */
        record Revoked(LeaseKey key, HolderId holder, Fence revision, Fence revokedRevision) implements Revoke {
        }

        /** Nobody held the key; nothing was written. */
        record Free(LeaseKey key) implements Revoke {
        }

        /** The revision sent is not the current fence; nothing was written. {@code lease} is the current one. */
        record NotCurrent(LeaseView lease) implements Revoke {
            @Override
            public LeaseKey key() {
                return lease.key();
            }
        }
    }

    /**
     * handover (ADR-042): handed over (the successor's new lease; it owns only after its own renew),
     * lost (as a renew at the same revision), or no successor (nothing written; the caller's lease
     * is unchanged, and the caller may renew it).
     */
    public sealed interface Handover {
        record HandedOver(LeaseView lease) implements Handover {
        }

        record Lost(String reason) implements Handover {
        }

        record NoSuccessor(String reason) implements Handover {
        }
    }

    /** candidates: who answered for the key within the window, sorted by holder id. */
    public record Candidates(LeaseKey key, List<Candidate> candidates) {
        public Candidates {
            Objects.requireNonNull(key, "key");
            candidates = List.copyOf(candidates);
        }
    }
}
