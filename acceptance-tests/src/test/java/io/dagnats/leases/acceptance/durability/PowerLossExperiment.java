package io.dagnats.leases.acceptance.durability;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.durability.PowerLossRig.Configuration;
import io.dagnats.leases.acceptance.durability.RecoveredBucket.StoreSnapshot;
import io.dagnats.leases.acceptance.durability.RecoveredBucket.Stored;
import io.dagnats.leases.acceptance.durability.RuleFollowingHolder.Acknowledged;
import io.dagnats.leases.acceptance.durability.RuleFollowingHolder.Ownership;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Power cuts under holders that follow the holder rules, judged from the
 * holders' own records and what the service and the recovered store answer.
 *
 * <p>Each cut: the holders work for a while (at least a TTL and a second since
 * the last restart, so every ownership the previous cut could disturb has
 * ended), then every server and dagnats are killed with SIGKILL and what their
 * stores had not synced is dropped; the servers boot on the same stores, the
 * bucket is read through the stream leader before dagnats serves again (no
 * holder can have written yet), then dagnats starts and each key's owner is
 * asked once. The holders keep running throughout.
 *
 * <p>Per cut:
 * <ul>
 * <li><b>lost</b>: acknowledged writes (acknowledged since the previous
 * restart) that the recovered stream no longer has: revisions above its last
 * sequence, or every one when the bucket itself is gone;
 * <li><b>keys rolled back</b>: keys whose last acknowledged write is not what
 * the recovered store holds for them (an earlier revision, another write at its
 * revision, or nothing, unless its TTL had run out), and <b>owner behind</b>:
 * the same judged from the service's first {@code owner} answer;
 * <li><b>repeated</b>: revisions acknowledged for two different writes (key,
 * holder, acquired_at, expires_at), counted where the second arrives;
 * <li><b>overlaps</b>: pairs of ownership windows of two holders on one key
 * that intersect in time, counted where the later one starts, and the longest.
 * </ul>
 */
final class PowerLossExperiment {

    record CutFigures(int cut, boolean bucketKept, int acknowledged, long highestAcknowledged, long recoveredLastSequence,
                      int lost, int keysRolledBack, int ownerBehind, int repeated, int overlaps, long longestOverlapMillis,
                      long outageMillis) {

        String line() {
            return "cut " + cut + ": bucket " + (bucketKept ? "kept" : "GONE") + ", acknowledged " + acknowledged
                    + " (highest revision " + highestAcknowledged + "), recovered last sequence " + recoveredLastSequence
                    + ", lost " + lost + ", keys rolled back " + keysRolledBack + ", owner behind " + ownerBehind
                    + ", repeated revisions " + repeated + ", overlaps " + overlaps + " (longest "
                    + longestOverlapMillis + " ms), outage " + outageMillis + " ms";
        }
    }

    record Workload(int keys, Duration ttl, Duration renewEvery, Duration load) {
    }

    private record Cut(long cutNanos, long restartNanos, long servingNanos, StoreSnapshot snapshot,
                       Map<String, JsonNode> ownerAnswers, Map<String, Instant> ownerAnsweredAt) {
    }

    private PowerLossExperiment() {
    }

    static List<CutFigures> run(Configuration configuration, Workload workload, int cuts) throws InterruptedException {
        List<Cut> done = new ArrayList<>();
        List<RuleFollowingHolder> holders = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        long startNanos = System.nanoTime();
        try (PowerLossRig rig = PowerLossRig.start(configuration);
             WireClient asker = new WireClient(rig.urls())) {
            for (int k = 0; k < workload.keys(); k++) {
                String key = "power-" + k;
                keys.add(key);
                for (String side : List.of("a", "b")) {
                    holders.add(new RuleFollowingHolder(rig.urls(), key, "h" + k + side, workload.ttl(),
                            workload.renewEvery()));
                }
            }
            long settle = workload.ttl().toMillis() + 1000;
            long lastServing = System.nanoTime();
            for (int cut = 1; cut <= cuts; cut++) {
                long busy = Math.max(workload.load().toMillis(), cut == 1 ? 0 : settle)
                        + ThreadLocalRandom.current().nextLong(1000);
                TimeUnit.NANOSECONDS.sleep(Math.max(0, lastServing + TimeUnit.MILLISECONDS.toNanos(busy) - System.nanoTime()));
                long cutNanos = System.nanoTime();
                rig.cutPower();
                long restartNanos = System.nanoTime();
                rig.startServers();
                StoreSnapshot snapshot = rig.snapshot(keys);
                rig.startDagnats();
                lastServing = System.nanoTime();
                Map<String, JsonNode> answers = new HashMap<>();
                Map<String, Instant> answeredAt = new HashMap<>();
                for (String key : keys) {
                    answers.put(key, Polling.until(Duration.ofSeconds(30), "an owner answer for " + key,
                            () -> askOwner(asker, key), answer -> answer != null && answer.has("held")));
                    // A "free" answer may reflect any moment up to its arrival: a lease that ran out
                    // while dagnats was still starting, or while earlier keys were asked, is free then.
                    answeredAt.put(key, Instant.now());
                }
                done.add(new Cut(cutNanos, restartNanos, lastServing, snapshot, answers, answeredAt));
            }
            TimeUnit.MILLISECONDS.sleep(settle);
        } finally {
            for (RuleFollowingHolder holder : holders) {
                holder.close();
            }
        }
        return judge(done, holders, startNanos);
    }

    private static JsonNode askOwner(WireClient asker, String key) {
        try {
            return asker.owner(key);
        } catch (RuntimeException noAnswer) {
            return null;
        }
    }

    private static List<CutFigures> judge(List<Cut> cuts, List<RuleFollowingHolder> holders, long startNanos) {
        List<Acknowledged> acknowledged = new ArrayList<>();
        List<Ownership> windows = new ArrayList<>();
        for (RuleFollowingHolder holder : holders) {
            acknowledged.addAll(holder.acknowledged);
            windows.addAll(holder.ownershipsSoFar());
        }
        acknowledged.sort(Comparator.comparingLong(Acknowledged::receivedNanos));
        int[] repeated = new int[cuts.size() + 1];
        int[] overlaps = new int[cuts.size() + 1];
        long[] longest = new long[cuts.size() + 1];
        countRepeats(cuts, acknowledged, repeated);
        countOverlaps(cuts, windows, overlaps, longest);

        List<CutFigures> figures = new ArrayList<>();
        long periodStart = startNanos;
        for (int i = 0; i < cuts.size(); i++) {
            Cut cut = cuts.get(i);
            long from = periodStart;
            List<Acknowledged> period = acknowledged.stream()
                    .filter(write -> write.receivedNanos() >= from && write.receivedNanos() < cut.restartNanos())
                    .toList();
            List<Acknowledged> writes = distinctWrites(period);
            StoreSnapshot snapshot = cut.snapshot();
            int lost = (int) writes.stream()
                    .filter(write -> !snapshot.bucketPresent() || write.revision() > snapshot.lastSequence()).count();
            Map<String, Acknowledged> lastByKey = new HashMap<>();
            for (Acknowledged write : period) {
                lastByKey.put(write.key(), write); // sorted by arrival: the last one wins
            }
            int rolledBack = 0;
            int behind = 0;
            for (Acknowledged last : lastByKey.values()) {
                Stored stored = snapshot.bucketPresent() ? snapshot.lastByKey().get(last.key()) : null;
                if (!KeptWrites.kept(last, stored, snapshot.takenAt())) {
                    rolledBack++;
                }
                if (!KeptWrites.answeredKept(last, cut.ownerAnswers().get(last.key()), cut.ownerAnsweredAt().get(last.key()))) {
                    behind++;
                }
            }
            long highest = writes.stream().mapToLong(Acknowledged::revision).max().orElse(0);
            figures.add(new CutFigures(i + 1, snapshot.bucketPresent(), writes.size(), highest, snapshot.lastSequence(),
                    lost, rolledBack, behind, repeated[i + 1], overlaps[i + 1], longest[i + 1],
                    TimeUnit.NANOSECONDS.toMillis(cut.servingNanos() - cut.cutNanos())));
            periodStart = cut.restartNanos();
        }
        if (repeated[0] > 0 || overlaps[0] > 0) {
            throw new AssertionError("before the first cut already: " + repeated[0] + " repeated revisions, "
                    + overlaps[0] + " overlaps");
        }
        return figures;
    }

    private static List<Acknowledged> distinctWrites(List<Acknowledged> acknowledged) {
        List<Acknowledged> distinct = new ArrayList<>();
        for (Acknowledged write : acknowledged) {
            if (distinct.stream().noneMatch(seen -> seen.revision() == write.revision() && seen.sameWrite(write))) {
                distinct.add(write);
            }
        }
        return distinct;
    }

    /** Index 0: before the first cut; i: from cut i to cut i + 1. */
    private static int periodOf(List<Cut> cuts, long nanos) {
        int period = 0;
        for (int i = 0; i < cuts.size(); i++) {
            if (nanos >= cuts.get(i).cutNanos()) {
                period = i + 1;
            }
        }
        return period;
    }

    private static void countRepeats(List<Cut> cuts, List<Acknowledged> acknowledged, int[] repeated) {
        Map<Long, List<Acknowledged>> byRevision = new HashMap<>();
        for (Acknowledged write : acknowledged) {
            List<Acknowledged> same = byRevision.computeIfAbsent(write.revision(), revision -> new ArrayList<>());
            boolean known = same.stream().anyMatch(write::sameWrite);
            if (!known) {
                same.add(write);
                if (same.size() == 2) {
                    repeated[periodOf(cuts, write.receivedNanos())]++;
                }
            }
        }
    }

    private static void countOverlaps(List<Cut> cuts, List<Ownership> windows, int[] overlaps, long[] longest) {
        for (int i = 0; i < windows.size(); i++) {
            for (int j = i + 1; j < windows.size(); j++) {
                Ownership one = windows.get(i);
                Ownership other = windows.get(j);
                if (!one.key().equals(other.key()) || one.holder().equals(other.holder())) {
                    continue;
                }
                long start = Math.max(one.startNanos(), other.startNanos());
                long end = Math.min(one.endNanos(), other.endNanos());
                if (end > start) {
                    int period = periodOf(cuts, start);
                    overlaps[period]++;
                    longest[period] = Math.max(longest[period], TimeUnit.NANOSECONDS.toMillis(end - start));
                }
            }
        }
    }
}
