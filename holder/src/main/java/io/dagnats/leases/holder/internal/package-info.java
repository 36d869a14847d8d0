/**
 * Internal: not an API, may change without notice. What the holder's parts share: the scheduler,
 * ids, telemetry, call health, key change events, fence floors and the ownership a keeper
 * publishes.
 */
package io.dagnats.leases.holder.internal;
