package io.dagnats.leases.holder;

import io.dagnats.leases.domain.Tenure;

/**
 * Serves requests that {@code api.leases.forward} routes to this process as owner
 * of a key.
 *
 * <p>What is guaranteed: the handler is called only while this process acts as
 * owner of the key (before its deadline, less the safety margin) and only for a
 * request whose fence is at or above the tenure's start; anything else is rejected
 * as stale and never reaches it. It gets the holder's <em>current</em> tenure, whose
 * fence is at or above the one dagnats sent. If this process stops acting as owner
 * while the handler runs (deadline passed, lease lost, the key dropped or the holder
 * closed), the handler's thread is interrupted; a drop or close releases the lease
 * only after the handler has returned (it waits up to 5 s, then leaves the lease to
 * expire by its TTL), so the next owner never starts while it still runs.
 *
 * <p>What is not: nothing can stop a handler that ignores the interrupt, nor undo
 * what it did, and a process paused between the check and a write still writes.
 * So every side effect must be fenced downstream: send {@code tenure.fence()} with
 * each write, and have the store refuse a fence below the highest it has seen.
 */
@FunctionalInterface
public interface ForwardHandler {

    /**
     * @param tenure  this process's tenure as the request is handed over: the key, the
     *                fence to send with any downstream write, and the deadline
     * @param payload the request body
     * @return the reply body (keep it small: base64 in JSON must fit max_payload)
     */
    byte[] handle(Tenure tenure, byte[] payload) throws Exception;
}
