package io.dagnats.leases.acceptance.harness;

import io.dagnats.leases.holder.LeaseHolder;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a test opened (connections, holders, logs), closed after it in the reverse order:
 * a holder before the connection it runs on. Every one is closed even when one fails to.
 */
public final class Opened implements AutoCloseable {

    private final List<AutoCloseable> resources = new ArrayList<>();

    /** Closes {@code resource} after the test, before everything opened earlier. */
    public synchronized <T extends AutoCloseable> T add(T resource) {
        resources.add(resource);
        return resource;
    }

    /** A NATS connection to {@code url}, closed after the test. */
    public Connection nats(String url) throws IOException, InterruptedException {
        return add(Nats.connect(url));
    }

    /** A holder named {@code id} on a connection of its own to {@code url}; both closed after the test. */
    public LeaseHolder holder(String url, String id) throws IOException, InterruptedException {
        return add(LeaseHolder.builder(nats(url)).holderId(id).build());
    }

    @Override
    public void close() throws Exception {
        List<AutoCloseable> opened;
        synchronized (this) {
            opened = new ArrayList<>(resources);
            resources.clear();
        }
        Exception first = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception failed) {
                if (first == null) {
                    first = failed;
                } else {
                    first.addSuppressed(failed);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
