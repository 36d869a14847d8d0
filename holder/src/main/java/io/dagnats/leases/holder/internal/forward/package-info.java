/**
 * Internal: not an API, may change without notice. The forward inbox: serving requests dagnats
 * forwards to the keys this holder owns.
 */
package io.dagnats.leases.holder.internal.forward;
