package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.time.Instant;

/**
 * A lease as dagnats reported it.
 *
 * @param revision  the fence; send it with every downstream write
 * @param expiresAt advisory wall-clock expiry; the server's TTL is what frees the key
 */
public record LeaseView(
        LeaseKey key, HolderId holder, Fence revision, Instant acquiredAt, Instant expiresAt, LeaseTtl ttl) {
}
