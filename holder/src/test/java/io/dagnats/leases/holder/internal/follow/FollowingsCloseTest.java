package io.dagnats.leases.holder.internal.follow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.internal.CountingConnection;
import io.dagnats.leases.holder.internal.FenceFloors;
import io.dagnats.leases.holder.internal.ManualScheduler;
import org.junit.jupiter.api.Test;

/**
 * A holder's close stops its followings, then its threads: a follow that lands in between (from
 * another thread, racing the close) must be refused, not open a dispatcher or a subscription that
 * nothing will close any more.
 */
class FollowingsCloseTest {

    private final CountingConnection nats = new CountingConnection();
    private final ManualScheduler scheduler = new ManualScheduler();
    private final Followings followings = new Followings(Claimant.of(new HolderId("h"), new Incarnation("run")),
            nats.connection(), new LeaseClient(nats.connection()), scheduler, Runnable::run, scheduler,
            new FenceFloors());

    @Test
    void aFollowAfterTheFollowingsWereClosedIsRefusedAndOpensNothing() {
        followings.closeAll(); // the holder's close, its threads not stopped yet

        assertThrows(IllegalStateException.class, () -> followings.follow(new LeaseKey("k"), owner -> { }));
        assertEquals(0, nats.openDispatchers(), "a dispatcher thread left open");
        assertEquals(0, nats.openSubscriptions(), "a subscription left open");
        assertEquals(0, nats.listeners(), "a reconnect listener left on the connection");
    }

    @Test
    void closingStopsEveryFollowingAndTheirDispatcher() {
        followings.follow(new LeaseKey("a"), owner -> { });
        followings.follow(new LeaseKey("b"), owner -> { });
        assertEquals(2, nats.openSubscriptions());

        followings.closeAll();

        assertEquals(0, nats.openDispatchers());
        assertEquals(0, nats.openSubscriptions());
        assertEquals(0, nats.listeners());
    }
}
