package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.RevokeReason;
import io.dagnats.leases.domain.Revoker;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.Request;
import java.util.Optional;

/**
 * {@code revoke --tenure N}: a library holder renews every few seconds, so the revision an
 * operator read is stale by the time they revoke; its tenure is not. Done in the CLI, with
 * no change to the wire: read the lease (a leader read), and if its tenure is N, revoke the
 * revision just read. The service's revision check keeps it exact: a renew in between makes
 * that revoke answer not-current with the renewed lease, and if that lease is still of
 * tenure N the revoke is tried once more with its revision. A lease of another tenure is
 * never revoked.
 */
final class RevokeByTenure {

    private RevokeByTenure() {
    }

    /** Tries twice at most: a holder renewing more often than a round trip is not a case worth a loop. */
    static Answers.Revoke revoke(DagnatsCalls calls, LeaseKey key, Fence tenure, RevokeReason reason,
            Optional<Account> account, Optional<Revoker> by) {
        Answers.Owner owner = calls.owner(key, account);
        if (!(owner instanceof Answers.Owner.Held held)) {
            return new Answers.Revoke.Free(key);
        }
        LeaseView lease = held.lease();
        for (int attempt = 0; attempt < 2 && ofTenure(lease, tenure); attempt++) {
            Answers.Revoke answer = calls.revoke(new Request.Revoke(key, reason, Optional.of(lease.revision()),
                    account, by));
            if (!(answer instanceof Answers.Revoke.NotCurrent notCurrent)) {
                return answer;
            }
            lease = notCurrent.lease();
        }
        return new Answers.Revoke.NotCurrent(lease);
    }

    static boolean ofTenure(LeaseView lease, Fence tenure) {
        return lease.tenure().equals(Optional.of(tenure));
    }
}
