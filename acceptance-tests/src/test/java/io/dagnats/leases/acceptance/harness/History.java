package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Every answer the wire-level contenders got (holder, key, operation, outcome,
 * revision, time), and the invariants of the service's answers: fences grow for
 * each holder and each fence names one holder. Whether two holders ever acted as
 * owner at once is judged elsewhere, from the holders' own beliefs
 * ({@link OwnershipHistory}).
 */
public final class History {

    /** One answer. {@code outcome} is granted, held, renewed, released, lost, or an error kind. */
    public record Answer(long atNanos, String key, String holder, String operation, String outcome, long revision) {
        public boolean acknowledgedWrite() {
            return outcome.equals("granted") || outcome.equals("renewed") || outcome.equals("released");
        }
    }

    private final List<Answer> answers = new CopyOnWriteArrayList<>();

    public void record(String key, String holder, String operation, String outcome, long revision) {
        answers.add(new Answer(System.nanoTime(), key, holder, operation, outcome, revision));
    }

    public List<Answer> answers() {
        return List.copyOf(answers);
    }

    /** How many answers of each outcome, for the report. */
    public Map<String, Long> outcomes() {
        return new TreeMap<>(answers.stream().collect(Collectors.groupingBy(Answer::outcome, Collectors.counting())));
    }

    /** The highest revision acknowledged for each key. */
    public Map<String, Long> highestAcknowledged() {
        Map<String, Long> highest = new HashMap<>();
        for (Answer answer : answers) {
            if (answer.acknowledgedWrite()) {
                highest.merge(answer.key(), answer.revision(), Math::max);
            }
        }
        return highest;
    }

    /** The invariants: fences of one key strictly increase for each holder; each fence belongs to exactly one holder. */
    public void checkInvariants() {
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
    }

    public List<Answer> between(long fromNanos, long toNanos) {
        List<Answer> window = new ArrayList<>();
        for (Answer answer : answers) {
            if (answer.atNanos() >= fromNanos && answer.atNanos() <= toNanos) {
                window.add(answer);
            }
        }
        return window;
    }
}
