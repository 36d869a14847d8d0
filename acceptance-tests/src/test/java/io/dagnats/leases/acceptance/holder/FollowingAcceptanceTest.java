package io.dagnats.leases.acceptance.holder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.DelayingProxy;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.Following;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.KeyOwner;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnerListener;
import io.dagnats.leases.holder.OwnershipListener;
import io.nats.client.Connection;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Following a key's owner without campaigning ({@code LeaseHolder.follow}), against a real
 * nats-server and dagnats: each change is told once, in order, never an older owner after a
 * newer one, including across missed events and a dead holder's expiry.
 */
class FollowingAcceptanceTest extends SharedServiceTest {

    private static final Duration TTL = Duration.ofSeconds(2);

    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void closeAll() {
        Collections.reverse(cleanup);
        for (AutoCloseable closeable : cleanup) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // a holder whose connection the test closed may fail to close cleanly
            }
        }
    }

    /** What a follower was told, and on which thread. */
    private static final class Told implements OwnerListener {
        final List<KeyOwner> owners = new CopyOnWriteArrayList<>();
        final List<String> threads = new CopyOnWriteArrayList<>();

        @Override
        public void ownerChanged(KeyOwner owner) {
            owners.add(owner);
            threads.add(Thread.currentThread().getName());
        }

        KeyOwner last() {
            return owners.isEmpty() ? null : owners.get(owners.size() - 1);
        }
    }

    private LeaseHolder holder(String prefix, String url) throws Exception {
        Connection connection = Nats.connect(new Options.Builder().server(url).reconnectWait(Duration.ofMillis(100))
                .maxReconnects(-1).build());
        cleanup.add(connection::close);
        LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix(prefix).build();
        cleanup.add(holder);
        return holder;
    }

    private KeptLease owning(LeaseHolder holder, String key) {
        return owning(holder, key, TTL);
    }

    private KeptLease owning(LeaseHolder holder, String key, Duration ttl) {
        KeptLease lease = holder.keep(key, ttl, OwnershipListener.NONE);
        Polling.until(Duration.ofSeconds(10), holder.id() + " to own " + key, lease::isOwner, owner -> owner);
        return lease;
    }

    private static KeyOwner until(Told told, String what, Predicate<KeyOwner> done) {
        return Polling.until(Duration.ofSeconds(10), what, told::last, owner -> owner != null && done.test(owner));
    }

    private static boolean heldBy(KeyOwner owner, LeaseHolder holder) {
        return owner instanceof KeyOwner.Held held && held.holder().equals(holder.id())
                && held.incarnation().equals(Optional.of(holder.incarnation()));
    }

    private static KeyOwner.Held heldAs(KeptLease lease, LeaseHolder holder) {
        return new KeyOwner.Held(lease.key(), holder.id(), Optional.of(holder.incarnation()),
                lease.tenure().orElseThrow().start());
    }

    @Test
    void aFollowerSeesTheHolderThenFreeAfterItsReleaseThenTheNextWithAHigherFence() throws Exception {
        String key = "follow-release";
        Told told = new Told();
        Following following = holder("follower", service.nats.url()).follow(new LeaseKey(key), told);
        until(told, "the first report", owner -> true);

        LeaseHolder a = holder("a", service.nats.url());
        KeyOwner.Held first = heldAs(owning(a, key), a);
        until(told, "a as owner", owner -> heldBy(owner, a));
        a.close(); // releases
        until(told, "free after the release", owner -> owner instanceof KeyOwner.Free);
        LeaseHolder b = holder("b", service.nats.url());
        KeyOwner.Held second = heldAs(owning(b, key), b);
        until(told, "b as owner", owner -> heldBy(owner, b));

        KeyOwner free = new KeyOwner.Free(new LeaseKey(key));
        assertEquals(List.of(free, first, free, second), told.owners);
        assertTrue(first.tenure().isBelow(second.tenure()), told.owners.toString());
        assertEquals(second, following.current().orElseThrow());
        // On the holder's listener thread, never on a NATS dispatcher.
        assertTrue(told.threads.stream().allMatch(thread -> thread.startsWith("dagnats-listener-")), told.threads.toString());
    }

    @Test
    void aFollowerStartedWhileAHolderOwnsTheKeyReportsItFirst() throws Exception {
        String key = "follow-late";
        LeaseHolder a = holder("a", service.nats.url());
        KeyOwner.Held owner = heldAs(owning(a, key), a);

        Told told = new Told();
        Following following = holder("follower", service.nats.url()).follow(new LeaseKey(key), told);
        until(told, "the first report", reported -> true);

        // Over a few renewals nothing more is told: a renewal is no change of owner.
        long until = System.nanoTime() + TTL.toNanos();
        while (System.nanoTime() < until) {
            Polling.pause();
        }
        assertEquals(List.of(owner), told.owners);
        assertEquals(Optional.of(owner), following.current());
    }

    @Test
    void twoFollowingsOfOneKeyInOneHolderAreEachToldAndClosingOneLeavesTheOther() throws Exception {
        String key = "follow-twice";
        LeaseHolder follower = holder("follower", service.nats.url());
        Told closed = new Told();
        Told open = new Told();
        Following first = follower.follow(new LeaseKey(key), closed);
        follower.follow(new LeaseKey(key), open);
        until(closed, "the first report", owner -> true);
        until(open, "the first report", owner -> true);
        first.close();

        LeaseHolder a = holder("a", service.nats.url());
        KeyOwner.Held owner = heldAs(owning(a, key), a);
        until(open, "a as owner", reported -> heldBy(reported, a));

        assertEquals(List.of(new KeyOwner.Free(new LeaseKey(key)), owner), open.owners);
        assertEquals(List.of(new KeyOwner.Free(new LeaseKey(key))), closed.owners);
    }

    @Test
    void aFollowerThatMissesEventsResyncsToTheCurrentOwnerAndNeverReportsAnOlderOne() throws Exception {
        String key = "follow-gap";
        // Both renew every 10 s, and the follower reads by itself only after 30 s without news: within
        // the 5 s below, only the reconnect itself can tell the follower that it missed something.
        Duration ttl = Duration.ofSeconds(30);
        LeaseHolder a = holder("a", service.nats.url());
        KeyOwner.Held first = heldAs(owning(a, key, ttl), a);
        try (DelayingProxy proxy = DelayingProxy.to(service.nats.url())) {
            Told told = new Told();
            holder("follower", proxy.url()).follow(new LeaseKey(key), told);
            until(told, "a as owner", owner -> heldBy(owner, a));

            // The follower's path to NATS is cut while the key changes hands twice: a releases, b takes it.
            proxy.sever(Duration.ofSeconds(30));
            a.close();
            LeaseHolder b = holder("b", service.nats.url());
            KeyOwner.Held second = heldAs(owning(b, key, ttl), b);
            assertEquals(List.of(first), told.owners, "nothing reached the follower meanwhile");
            proxy.reconnect();

            Polling.until(Duration.ofSeconds(5), "b as owner after the reconnect", told::last,
                    owner -> heldBy(owner, b));
            assertEquals(List.of(first, second), told.owners);
        }
    }

    @Test
    void theExpiryOfADeadHoldersLeaseIsReportedAsFreeWithinItsTtlAndASecond() throws Exception {
        String key = "follow-expiry";
        Connection dying = Nats.connect(service.nats.url());
        cleanup.add(dying::close);
        LeaseHolder a = LeaseHolder.builder(dying).holderPrefix("a").build();
        cleanup.add(a);
        owning(a, key);
        Told told = new Told();
        holder("follower", service.nats.url()).follow(new LeaseKey(key), told);
        until(told, "a as owner", owner -> heldBy(owner, a));

        long killed = System.nanoTime();
        dying.close(); // the process is gone: no release, no renew
        Polling.until(TTL.plusSeconds(3), "free after the expiry", told::last, owner -> owner instanceof KeyOwner.Free);
        Duration took = Duration.ofNanos(System.nanoTime() - killed);

        System.out.println("a dead holder's expiry (TTL " + TTL.toMillis() + " ms) was reported free "
                + took.toMillis() + " ms after it died");
        assertTrue(took.compareTo(TTL.plusSeconds(1)) <= 0, "reported free after " + took);
        assertEquals(2, told.owners.size(), told.owners.toString());
    }

    @Test
    void awaitOwnershipReturnsTheTenureOnceOwnedAndEmptyWhileAnotherHoldsTheKey() throws Exception {
        String key = "await-owner";
        LeaseHolder a = holder("a", service.nats.url());
        KeptLease first = a.keep(key, TTL, OwnershipListener.NONE);
        Tenure tenure = first.awaitOwnership(Duration.ofSeconds(10)).orElseThrow();
        assertEquals(first.tenure().orElseThrow().start(), tenure.start());

        LeaseHolder b = holder("b", service.nats.url());
        KeptLease second = b.keep(key, TTL, OwnershipListener.NONE);
        long asked = System.nanoTime();
        assertEquals(Optional.empty(), second.awaitOwnership(Duration.ofSeconds(1)));
        assertTrue(System.nanoTime() - asked >= Duration.ofSeconds(1).toNanos(), "returned before its timeout");

        first.close(); // releases: b takes the key at once
        Tenure next = second.awaitOwnership(Duration.ofSeconds(10)).orElseThrow();
        assertTrue(tenure.fence().isBelow(next.start()), tenure + " then " + next);
        assertTrue(second.isOwner());

        // A wait ends when its lease is closed, owner or not.
        KeptLease third = holder("c", service.nats.url()).keep(key, TTL, OwnershipListener.NONE);
        Thread closer = new Thread(third::close);
        long waited = System.nanoTime();
        closer.start();
        assertEquals(Optional.empty(), third.awaitOwnership(Duration.ofSeconds(30)));
        assertTrue(System.nanoTime() - waited < Duration.ofSeconds(15).toNanos(), "waited out the timeout");
        closer.join();
    }
}
