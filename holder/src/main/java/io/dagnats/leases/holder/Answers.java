package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;

/** The normal answers of the five lease subjects, as values. */
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
         * No reply: {@code kind} is no_owner, owner_unavailable, owner_rejected,
         * owner_timeout or reply_too_large; {@code holder} and {@code revision} name the
         * owner last tried, when there was one (else null and 0).
         */
        record NotAnswered(String kind, String reason, String holder, long revision) implements Forward {
        }
    }
}
