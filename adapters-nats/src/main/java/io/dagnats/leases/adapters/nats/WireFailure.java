package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.ErrorKind;

/** What a failure comes to on the wire: its kind and the one sentence the caller reads. */
record WireFailure(ErrorKind kind, String sentence) {
}
