package io.dagnats.leases.adapters.nats;

/** One answer of {@code $JS.API.STREAM.MSG.GET}: a stored message or the error that stood in for it, never both. */
record MessageGetReply(StoredMessage message, JetStreamApiError error) {
}
