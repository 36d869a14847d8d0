package io.dagnats.leases.protocol;

/**
 * Where the service keeps the leases (docs/wire-protocol.md, "Storage"): the
 * JetStream KV bucket operators' tools read the settings of. Its stream, its
 * subjects and the JetStream API stay with the adapter that speaks JetStream.
 */
public final class LeaseStorage {

    /** The KV bucket; its stream is {@code KV_} and this. */
    public static final String BUCKET = "leases";

    private LeaseStorage() {
    }
}
