package io.dagnats.leases.acceptance.durability;

import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;

/** What an operator does to the {@code leases} bucket by hand, with credentials other than dagnats'. */
final class BucketByHand {

    private static final int STREAM_NAME_IN_USE = 10058;
    private static final int STREAM_NOT_FOUND = 10059;

    private BucketByHand() {
    }

    /**
     * Deletes the bucket and creates it again with {@code configuration} (a copy of its own, as
     * {@code nats stream info --json} into {@code nats stream add --config} makes one), deleting again
     * when a running dagnats recreated it in between.
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
                if (raced.getApiErrorCode() != STREAM_NAME_IN_USE || System.nanoTime() > deadline) {
                    throw raced;
                }
            }
        }
    }
}
