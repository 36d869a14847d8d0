package io.dagnats.leases.benchmarks;

import io.nats.client.Connection;
import io.nats.client.JetStreamApiException;
import java.io.IOException;

/** The lease bucket's stream as the store sees it: every write, renewals included, is one sequence. */
final class Streams {

    private Streams() {
    }

    /** The last sequence of the {@code leases} bucket's stream. */
    static long lastSequence(Connection connection) throws IOException, JetStreamApiException {
        return connection.jetStreamManagement().getStreamInfo("KV_leases").getStreamState().getLastSequence();
    }
}
