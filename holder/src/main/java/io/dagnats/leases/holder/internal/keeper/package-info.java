/**
 * Internal: not an API, may change without notice. Keeping one key: the keeper's state machine
 * (rules, states, events, effects) and its runner, and the keys a holder keeps.
 */
package io.dagnats.leases.holder.internal.keeper;
