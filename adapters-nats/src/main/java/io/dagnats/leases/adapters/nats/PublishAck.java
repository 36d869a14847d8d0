package io.dagnats.leases.adapters.nats;

/** A publish acknowledgement: the stored sequence, or the error that refused the write. */
record PublishAck(long sequence, JetStreamApiError error) {
}
