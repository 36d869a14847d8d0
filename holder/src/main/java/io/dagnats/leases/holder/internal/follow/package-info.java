/**
 * Internal: not an API, may change without notice. Following who owns a key without campaigning:
 * the follow rules and their runner, and the keys a holder follows.
 */
package io.dagnats.leases.holder.internal.follow;
