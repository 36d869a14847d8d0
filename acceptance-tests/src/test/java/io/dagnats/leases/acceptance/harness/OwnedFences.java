package io.dagnats.leases.acceptance.harness;

import java.util.ArrayList;
import java.util.List;

/**
 * The fences one holder process believed it owned a key under, in the order it believed them,
 * from its own record alone, and the rule they must keep: every tenure it comes to believe in
 * (a grant, or a renewal of it) has a fence above every fence it believed before. A fence at or
 * below one it already had confirmed can be one the store hands out again (a store that went
 * back): a downstream store fenced by it would let an older write in.
 *
 * <p>Two records say so: the {@link OwnershipLog} (what its {@code KeptLease} answered, a line
 * each time the answer changed; a renewal is a new answer, since its deadline moved) and the
 * {@link ToldListener} (what its listener was told: {@code becameOwner} and {@code renewed}).
 */
public final class OwnedFences {

    private OwnedFences() {
    }

    /** The fences of the {@code own} lines about {@code key}, in the order written. */
    public static List<Long> fromLog(List<String> lines, String key) {
        List<Long> fences = new ArrayList<>();
        for (String line : lines) {
            String[] fields = line.trim().split(" ");
            if (fields.length > 6 && fields[1].equals(key) && fields[4].equals("own")) {
                fences.add(Long.parseLong(fields[6]));
            }
        }
        return fences;
    }

    /** The fences of the tenures the listener was given, in the order told. */
    public static List<Long> fromTold(List<ToldListener.Told> told) {
        return told.stream().filter(one -> one.tenure() != null).map(one -> one.tenure().fence().revision()).toList();
    }

    /** Each fence at or below one before it, said in a sentence; empty when every fence rose. */
    public static List<String> notAboveEveryEarlier(List<Long> fences, String record) {
        List<String> broken = new ArrayList<>();
        long highest = 0;
        for (int i = 0; i < fences.size(); i++) {
            long fence = fences.get(i);
            if (i > 0 && Long.compareUnsigned(fence, highest) <= 0) {
                broken.add(record + ": owned under fence " + Long.toUnsignedString(fence) + " after fence "
                        + Long.toUnsignedString(highest) + " (belief " + (i + 1) + " of " + fences.size() + ")");
            }
            highest = i == 0 || Long.compareUnsigned(fence, highest) > 0 ? fence : highest;
        }
        return broken;
    }

    /** The highest fence in {@code fences}; 0 when there is none. */
    public static long highest(List<Long> fences) {
        return fences.stream().reduce(0L, (a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b);
    }
}
