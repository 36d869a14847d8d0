package io.dagnats.leases.adapters.nats;

/** Whether the {@code leases} bucket can serve leases, and why not. */
public sealed interface BucketStatus {

    /** One line for operators. */
    String describe();

    /** The bucket is there and every setting lease safety rests on holds: leases are served. */
    record Ready(String settings, BucketIdentity identity) implements BucketStatus {
        @Override
        public String describe() {
            return "leases supported (" + settings + ")";
        }
    }

    /**
     * The server or the bucket cannot serve leases safely; every lease call answers
     * {@code unsupported} with this reason, until the bucket is judged again and found safe.
     */
    record Unsupported(String reason) implements BucketStatus {
        @Override
        public String describe() {
            return "leases unsupported: " + reason;
        }
    }

    /**
     * JetStream has not answered yet, or the bucket changed under the service and is being
     * checked again; calls answer {@code unavailable} until it is known which bucket serves.
     */
    record Pending(String reason) implements BucketStatus {
        @Override
        public String describe() {
            return "leases not ready yet: " + reason;
        }
    }
}
