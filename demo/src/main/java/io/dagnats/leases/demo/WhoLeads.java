package io.dagnats.leases.demo;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.protocol.Answers;
import io.nats.client.Connection;
import io.nats.client.Nats;

/** Prints the name of the replica that leads (the holder id's prefix), for the demo script. */
public final class WhoLeads {

    private WhoLeads() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        try (Connection connection = Nats.connect(url)) {
            Answers.Owner owner = new LeaseClient(connection).owner(new LeaseKey("demo-leader")).join();
            if (owner instanceof Answers.Owner.Held held) {
                String holder = held.lease().holder().value();
                System.out.println(holder.substring(0, holder.lastIndexOf('-')));
            }
        }
    }
}
