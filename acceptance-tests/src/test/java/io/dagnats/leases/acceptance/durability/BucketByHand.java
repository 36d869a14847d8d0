package io.dagnats.leases.acceptance.durability;

import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;

/** What an operator does to the {@code leases} bucket by hand, with credentials other than dagnats'. */
final class BucketByHand {

    private static final int STREAM_NAME_IN_USE = 10058;
    /** The server still removing the deleted stream's files when the new one is created (seen under load). */
    private static final int STREAM_STORE_FAILED = 10049;
    private static final int STREAM_NOT_FOUND = 10059;

    private BucketByHand() {
    }

    /**
     * Deletes the bucket and creates it again with {@code configuration} (a copy of its own, as
     * {@code nats stream info --json} into {@code nats stream add --config} makes one), deleting again
     * when a running dagnats recreated it in between, and trying again while the server is still removing
     * the deleted stream's store.
     */
    static void recreate(JetStreamManagement management, StreamConfiguration configuration) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                management.deleteStream("KV_leases");
            } catch (JetStreamApiException gone) {
                if (gone.getApiErrorCode() != STREAM_NOT_FOUND) {
                    throw gone;
                }
            }
            try {
                management.addStream(configuration);
                return;
            } catch (JetStreamApiException raced) {
                boolean again = raced.getApiErrorCode() == STREAM_NAME_IN_USE
                        || raced.getApiErrorCode() == STREAM_STORE_FAILED;
                if (!again || System.nanoTime() > deadline) {
                    throw raced;
                }
            }
        }
    }
}
