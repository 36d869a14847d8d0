package io.dagnats.leases.holder;

import java.math.BigInteger;
import java.util.Comparator;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Whom the owner of a key prefers to lead it: the strategy behind yielding to a better candidate
 * while healthy, and behind choosing the successor on close. {@link #none()} (the default) never
 * yields while healthy; every strategy hands over on close to its best waiting candidate.
 * A strategy only orders candidates: the brakes of {@link KeepOptions} decide when a better one is
 * acted on.
 */
public final class Succession {

    private static final Pattern DOTTED_NUMBERS = Pattern.compile("\\d+(\\.\\d+)*");

    private final String name;
    /** Orders candidates best first; zero for "equally good", which never makes an owner yield. */
    private final Comparator<Candidate> better;
    private final boolean yields;

    private Succession(String name, Comparator<Candidate> better, boolean yields) {
        this.name = name;
        this.better = better;
        this.yields = yields;
    }

    /** Today's behaviour: never yield while healthy; on close, hand over to the longest-waiting candidate. */
    public static Succession none() {
        return new Succession("none", Comparator.comparing(Candidate::waited).reversed(), false);
    }

    /** The highest {@code priority} leads; on a tie the owner stays, and on close the longest-waiting is chosen. */
    public static Succession highestPriority() {
        return new Succession("highestPriority", Comparator.comparingInt(Candidate::priority).reversed(), true);
    }

    /** Oldest version first, versions compared as dotted numbers (1.9 &lt; 1.10), else as text. */
    public static Succession oldestVersionFirst() {
        return oldestVersionFirst(Succession::compareVersions);
    }

    /**
     * The lowest version by {@code versions} leads (what KEP-4355 does for the control plane): during
     * a rolling upgrade the leader stays on an old binary until no old one is a candidate any more.
     */
    public static Succession oldestVersionFirst(Comparator<String> versions) {
        Objects.requireNonNull(versions, "versions");
        return new Succession("oldestVersionFirst", Comparator.comparing(Candidate::version, versions), true);
    }

    /** Whether an owner under this strategy yields to a strictly better candidate while healthy. */
    public boolean yieldsWhileHealthy() {
        return yields;
    }

    /** Negative when {@code a} is better than {@code b}, zero when neither is. */
    public int compare(Candidate a, Candidate b) {
        return better.compare(a, b);
    }

    /** Best first; among equals the longest-waiting first, then by holder id, so every process orders alike. */
    public Comparator<Candidate> order() {
        return better.thenComparing(Comparator.comparing(Candidate::waited).reversed())
                .thenComparing(candidate -> candidate.holder().value());
    }

    /** Dotted numbers compare numerically part by part (a missing part is 0); anything else as text. */
    static int compareVersions(String a, String b) {
        if (!DOTTED_NUMBERS.matcher(a).matches() || !DOTTED_NUMBERS.matcher(b).matches()) {
            return a.compareTo(b);
        }
        String[] left = a.split("\\.");
        String[] right = b.split("\\.");
        for (int i = 0; i < Math.max(left.length, right.length); i++) {
            int order = new BigInteger(i < left.length ? left[i] : "0")
                    .compareTo(new BigInteger(i < right.length ? right[i] : "0"));
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        return name;
    }
}
