package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;

/**
 * Serves requests that {@code api.leases.forward} routes to this process as owner
 * of a key. It runs only while this process acts as owner of that key and the
 * request's fence is at or above its tenure's start; otherwise the request is
 * rejected as stale and never reaches it.
 */
@FunctionalInterface
public interface ForwardHandler {

    /**
     * @param fence the lease revision dagnats sent the request under; send it with
     *              any downstream write the request causes
     * @return the reply body (keep it small: base64 in JSON must fit max_payload)
     */
    byte[] handle(LeaseKey key, Fence fence, byte[] payload) throws Exception;
}
