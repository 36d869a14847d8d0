package io.dagnats.leases.acceptance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Every answer holders got (holder, key, operation, outcome, revision, time),
 * one fenced sink per key recording every write holders attempted, and the
 * safety invariants checked over both.
 */
final class History {

    /** One answer. {@code outcome} is granted, held, renewed, released, lost, or an error kind. */
    record Answer(long atNanos, String key, String holder, String operation, String outcome, long revision) {
        boolean acknowledgedWrite() {
            return outcome.equals("granted") || outcome.equals("renewed") || outcome.equals("released");
        }
    }

    private final List<Answer> answers = new CopyOnWriteArrayList<>();
    private final Map<String, FencedSink> sinks = new ConcurrentHashMap<>();

    void record(String key, String holder, String operation, String outcome, long revision) {
        answers.add(new Answer(System.nanoTime(), key, holder, operation, outcome, revision));
    }

    FencedSink sink(String key) {
        return sinks.computeIfAbsent(key, ignored -> new FencedSink());
    }

    List<Answer> answers() {
        return List.copyOf(answers);
    }

    /** How many answers of each outcome, for the report. */
    Map<String, Long> outcomes() {
        return new TreeMap<>(answers.stream().collect(Collectors.groupingBy(Answer::outcome, Collectors.counting())));
    }

    /** The highest revision acknowledged for each key. */
    Map<String, Long> highestAcknowledged() {
        Map<String, Long> highest = new HashMap<>();
        for (Answer answer : answers) {
            if (answer.acknowledgedWrite()) {
                highest.merge(answer.key(), answer.revision(), Math::max);
            }
        }
        return highest;
    }

    /**
     * The invariants: fences of one key strictly increase for each holder; each
     * fence belongs to exactly one holder; the sink accepted no two holders'
     * writes for one fence and never a fence below one it had accepted.
     */
    void checkInvariants() {
        Map<String, Map<Long, String>> fenceOwners = new HashMap<>();
        Map<String, Long> lastByHolderKey = new HashMap<>();
        for (Answer answer : answers) {
            boolean holds = answer.outcome().equals("granted") || answer.outcome().equals("renewed");
            if (!holds && !answer.outcome().equals("held")) {
                continue;
            }
            String owner = fenceOwners.computeIfAbsent(answer.key(), ignored -> new HashMap<>())
                    .putIfAbsent(answer.revision(), answer.holder());
            if (holds && owner != null && !owner.equals(answer.holder())) {
                fail("fence " + answer.revision() + " of " + answer.key() + " granted to " + answer.holder()
                        + " and to " + owner);
            }
            if (holds) {
                String holderKey = answer.key() + "/" + answer.holder();
                Long previous = lastByHolderKey.put(holderKey, answer.revision());
                if (previous != null) {
                    boolean renew = answer.operation().equals("renew");
                    assertTrue(renew ? answer.revision() > previous : answer.revision() >= previous,
                            holderKey + " saw its fence go from " + previous + " to " + answer.revision());
                }
            }
        }
        for (Map.Entry<String, FencedSink> entry : sinks.entrySet()) {
            Map<Long, String> writerOfFence = new HashMap<>();
            long last = 0;
            for (FencedSink.Write write : entry.getValue().accepted()) {
                assertTrue(write.fence() >= last, entry.getKey() + ": the sink accepted a lower fence");
                last = write.fence();
                String other = writerOfFence.putIfAbsent(write.fence(), write.writer());
                if (other != null) {
                    assertEquals(other, write.writer(), entry.getKey() + ": two holders wrote under fence " + write.fence());
                }
            }
        }
    }

    List<Answer> between(long fromNanos, long toNanos) {
        List<Answer> window = new ArrayList<>();
        for (Answer answer : answers) {
            if (answer.atNanos() >= fromNanos && answer.atNanos() <= toNanos) {
                window.add(answer);
            }
        }
        return window;
    }
}
