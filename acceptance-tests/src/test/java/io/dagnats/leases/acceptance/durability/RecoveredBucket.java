package io.dagnats.leases.acceptance.durability;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.MessageInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The lease bucket as {@link PowerLossRig}'s servers hold it after a power cut, read
 * straight from the stream, not through dagnats: what {@link PowerLossExperiment}
 * compares the holders' acknowledged writes with.
 */
final class RecoveredBucket {

    /** The bucket as the recovered servers hold it, read before dagnats serves again. */
    record StoreSnapshot(boolean bucketPresent, long lastSequence, Map<String, Stored> lastByKey, Instant takenAt) {
    }

    /** The last message of a key: its revision and the holder, acquired_at and time it names (empty for a marker). */
    record Stored(long revision, String holder, String acquiredAt) {
    }

    private static final int STREAM_NOT_FOUND = 10059;
    private static final int NO_MESSAGE_FOUND = 10037;

    /** A fresh connection to the recovered servers. */
    interface Connecting {
        Connection connect() throws IOException, InterruptedException;
    }

    private RecoveredBucket() {
    }

    /**
     * What the recovered servers hold for {@code keys}, read through the stream
     * leader. A bucket the meta leader no longer knows (for 3 s) is absent.
     */
    static StoreSnapshot read(Connecting servers, Collection<String> keys, Path logs) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long notFoundSince = 0;
        while (true) {
            try (Connection connection = servers.connect()) {
                JetStreamManagement management = connection.jetStreamManagement();
                long last = management.getStreamInfo("KV_leases").getStreamState().getLastSequence();
                Map<String, Stored> byKey = new HashMap<>();
                for (String key : keys) {
                    try {
                        MessageInfo message = management.getLastMessage("KV_leases", "$KV.leases." + key);
                        byKey.put(key, stored(message));
                    } catch (JetStreamApiException none) {
                        if (none.getApiErrorCode() != NO_MESSAGE_FOUND) {
                            throw none;
                        }
                    }
                }
                return new StoreSnapshot(true, last, byKey, Instant.now());
            } catch (JetStreamApiException notFound) {
                if (notFound.getApiErrorCode() == STREAM_NOT_FOUND) {
                    notFoundSince = notFoundSince == 0 ? System.nanoTime() : notFoundSince;
                    if (System.nanoTime() - notFoundSince > TimeUnit.SECONDS.toNanos(3)) {
                        return new StoreSnapshot(false, 0, Map.of(), Instant.now());
                    }
                } else {
                    notFoundSince = 0;
                }
            } catch (IOException | RuntimeException notYet) {
                notFoundSince = 0;
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(interrupted);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the recovered servers did not answer for the bucket within 60 s; logs in " + logs);
            }
            Polling.pause();
        }
    }

    private static Stored stored(MessageInfo message) throws IOException {
        byte[] data = message.getData();
        if (data == null || data.length == 0) {
            return new Stored(message.getSeq(), "", "");
        }
        JsonNode record = WireClient.JSON.readTree(data);
        return new Stored(message.getSeq(), record.path("holder").asText(), record.path("acquired_at").asText());
    }
}
