package com.example.notify;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * One replica of a "notify" service: every replica runs this, and the one that
 * owns the lease {@code notify-leader} leads. Here it only prints; a real service
 * starts its work in {@code becameOwner}, stops it in {@code stoppedOwning}, and
 * sends {@code tenure.fence()} with every downstream write it makes as owner.
 */
public final class NotifyLeader {

    private NotifyLeader() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        Connection nats = Nats.connect(url);
        LeaseHolder holder = LeaseHolder.builder(nats).holderPrefix("notify").build(); // id: notify-<random>
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            holder.close(); // releases the lease, so another replica takes over without waiting a TTL
            try {
                nats.close();
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
        }));
        KeptLease leader = holder.keep("notify-leader", Duration.ofSeconds(15), new OwnershipListener() {
            @Override
            public void becameOwner(Tenure tenure) {
                System.out.println(holder.id() + " leads, fence " + tenure.fence());
            }

            @Override
            public void stoppedOwning(StopReason reason) {
                System.out.println(holder.id() + " no longer leads: " + reason);
            }
        });
        System.out.println(holder.id() + " keeps " + leader.key() + " (Ctrl-C to stop)");
        new CountDownLatch(1).await(); // until Ctrl-C or SIGTERM
    }
}
