package io.dagnats.leases.benchmarks;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeepOptions;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.TenureWork;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The leaderless gap when leadership moves between two holders (ADR-042), with the holder library
 * on both sides, each on its own connection: from the moment the old owner's belief ended (its
 * tenure's work cancelled, on its keeper's thread) to the new owner's {@code becameOwner}
 * (after its own confirming renew). Three ways:
 * <ul>
 *   <li>handover: the owner closes while the other waits with candidacy on: one handover call,
 *       the handed-over event, the successor's renew;
 *   <li>release: the same close, the other waiting without candidacy: a release, the released
 *       event, the waiter's acquire (after 0 to 24 ms of jitter) and its renew;
 *   <li>kill: the owner's connection is closed abruptly, as a kill -9 leaves it; the gap is from
 *       that moment to the other's {@code becameOwner} (the TTL runs out, the expiry marker wakes it).
 * </ul>
 * {@code HANDOVER_RUNS} (default 50) of each, {@code HANDOVER_KILL_RUNS} (default 10) at a
 * {@code HANDOVER_KILL_TTL_MS} (default 2000) TTL; the others at {@code HANDOVER_TTL_MS} (15000).
 * First, {@code HANDOVER_ROUND_TRIPS} (default 5000) renews are timed after as many unmeasured
 * ({@link ServiceRoundTrip}): the "renew" row, one service round trip to hold the gaps against, and
 * a dagnats that has served calls, as one in use has, not a fresh JVM's interpreted first calls; then
 * {@code HANDOVER_RUNS} renews each sent half a second after the last answer (the "renew 0.5s" row):
 * one round trip as a handover meets the service, after the pause each run starts from.
 * Then the "floor" row ({@link HandoverFloor}): a handover's messages alone, sent by bare jnats
 * through the relay process that stands for dagnats, after the same pause.
 * The old side's holder and connection are closed only after the next owner began: in a real
 * deployment that teardown is another process's, and here it would compete for the same cores
 * inside the gap.
 * Starts nothing: NATS_URL names a nats-server a dagnats serves on ({@code scripts/bench.sh handover}).
 */
public final class HandoverGap {

    private static final String KEY = "handover-gap";

    private HandoverGap() {
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv().getOrDefault("NATS_URL", "nats://127.0.0.1:4222");
        int runs = Integer.parseInt(System.getenv().getOrDefault("HANDOVER_RUNS", "50"));
        int killRuns = Integer.parseInt(System.getenv().getOrDefault("HANDOVER_KILL_RUNS", "10"));
        Duration ttl = Duration.ofMillis(Long.parseLong(System.getenv().getOrDefault("HANDOVER_TTL_MS", "15000")));
        Duration killTtl = Duration.ofMillis(Long.parseLong(System.getenv().getOrDefault("HANDOVER_KILL_TTL_MS", "2000")));
        int roundTrips = Integer.parseInt(System.getenv().getOrDefault("HANDOVER_ROUND_TRIPS", "5000"));
        System.out.printf(Locale.ROOT, "%-10s | %5s %7s | %9s %9s %9s%n", "move", "runs", "ttl ms", "p50 ms", "max ms",
                "min ms");
        report("renew", roundTrips, Duration.ZERO, ServiceRoundTrip.renews(url, roundTrips));
        report("renew 0.5s", runs, Duration.ZERO, ServiceRoundTrip.renews(url, runs, Side.WAITING_MILLIS));
        report("floor", runs, Duration.ZERO, HandoverFloor.gaps(url, runs, Side.WAITING_MILLIS));
        report("handover", runs, ttl, moves(url, runs, ttl, true, false));
        report("release", runs, ttl, moves(url, runs, ttl, false, false));
        report("kill -9", killRuns, killTtl, moves(url, killRuns, killTtl, false, true));
    }

    private static void report(String move, int runs, Duration ttl, List<Long> gapsNanos) {
        List<Long> sorted = gapsNanos.stream().sorted().toList();
        System.out.printf(Locale.ROOT, "%-10s | %5d %7d | %9.2f %9.2f %9.2f%n", move, runs, ttl.toMillis(),
                sorted.get(sorted.size() / 2) / 1e6, sorted.get(sorted.size() - 1) / 1e6, sorted.get(0) / 1e6);
    }

    /** One owner and one waiter at a time; after each move the old owner comes back as the waiter. */
    private static List<Long> moves(String url, int runs, Duration ttl, boolean candidacy, boolean kill)
            throws Exception {
        BlockingQueue<Long> began = new LinkedBlockingQueue<>();
        BlockingQueue<Long> ended = new LinkedBlockingQueue<>();
        KeepOptions options = candidacy ? KeepOptions.defaults().candidacy(0, "1") : KeepOptions.defaults();
        List<Long> gaps = new ArrayList<>();
        Side owner = Side.start(url, KEY + (kill ? "-kill" : candidacy ? "-handover" : "-release"), ttl, options,
                began, ended);
        take(began, "the first owner");
        for (int run = 0; run < runs; run++) {
            Side waiter = Side.start(url, owner.key, ttl, options, began, ended);
            waiter.awaitWaiting();
            long endedAt;
            if (kill) {
                endedAt = System.nanoTime();
                owner.connection.close(); // no release, no renew: as a kill -9 leaves it
            } else {
                // Only the key is closed here: the old side's holder and connection are torn down
                // once the next owner began, so that their teardown (threads joined, subscriptions
                // ended, the socket closed) does not compete for this machine's cores inside the gap.
                owner.lease.close();
                endedAt = take(ended, "the old owner's belief to end");
            }
            long beganAt = take(began, "the next owner");
            gaps.add(beganAt - endedAt);
            owner.holder.close(); // a killed side's keeper, still running in this JVM, stops too
            owner.connection.close();
            ended.clear();
            owner = waiter;
        }
        owner.holder.close();
        owner.connection.close();
        return gaps;
    }

    private static long take(BlockingQueue<Long> queue, String what) throws InterruptedException {
        Long at = queue.poll(60, TimeUnit.SECONDS);
        if (at == null) {
            throw new IllegalStateException("no " + what + " within 60 s");
        }
        return at;
    }

    /** One holder process's side: its own connection and holder, keeping the key. */
    private record Side(String key, Connection connection, LeaseHolder holder, KeptLease lease) {

        static Side start(String url, String key, Duration ttl, KeepOptions options, BlockingQueue<Long> began,
                BlockingQueue<Long> ended) throws Exception {
            Connection connection = Nats.connect(url);
            LeaseHolder holder = LeaseHolder.builder(connection).holderPrefix("gap").build();
            KeptLease lease = holder.keep(key, ttl, options, new OwnershipListener() {
                @Override
                public void becameOwner(Tenure tenure, TenureWork work) {
                    began.add(System.nanoTime());
                    work.onCancel(() -> ended.add(System.nanoTime())); // on the keeper's thread, as belief ends
                }

                @Override
                public void stoppedOwning(StopReason reason) {
                }
            });
            return new Side(key, connection, holder, lease);
        }

        /**
         * Long enough for its first acquire to be answered {@code held} and its candidacy to answer: a
         * waiter like any other (a benchmark's pause, not a test's condition).
         */
        void awaitWaiting() throws InterruptedException {
            Thread.sleep(WAITING_MILLIS);
        }

        static final long WAITING_MILLIS = 500;
    }
}
