/**
 * Internal: not an API, may change without notice. Shard sets: which shard keys a replica keeps,
 * its sight of the set, the balance rule and the drains.
 */
package io.dagnats.leases.holder.internal.shards;
