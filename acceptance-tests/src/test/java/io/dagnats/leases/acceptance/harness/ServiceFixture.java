package io.dagnats.leases.acceptance.harness;

import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;

/**
 * The usual set-up of an acceptance test: a real nats-server of its own, one
 * dagnats serving on it, and a wire-level client. Closed in reverse order.
 */
public final class ServiceFixture implements AutoCloseable {

    public final NatsServerProcess nats;
    public final DagnatsServer dagnats;
    public final WireClient client;

    private ServiceFixture(NatsServerProcess nats, DagnatsServer dagnats, WireClient client) {
        this.nats = nats;
        this.dagnats = dagnats;
        this.client = client;
    }

    public static ServiceFixture start() {
        NatsServerProcess nats = NatsServerProcess.modern();
        try {
            DagnatsServer dagnats = DagnatsServer.start(Settings.forUrl(nats.url()));
            return new ServiceFixture(nats, dagnats, new WireClient(nats.url()));
        } catch (RuntimeException failed) {
            nats.close();
            throw failed;
        }
    }

    @Override
    public void close() throws InterruptedException {
        try {
            client.close();
            dagnats.close();
        } finally {
            nats.close();
        }
    }
}
