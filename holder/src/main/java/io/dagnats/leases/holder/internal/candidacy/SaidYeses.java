package io.dagnats.leases.holder.internal.candidacy;

import io.dagnats.leases.domain.LeaseKey;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The yeses this process said to handover checks that nothing has granted yet, by check id
 * (ADR-046): each is granted at most once, by dagnats' grant or by the handover's change event
 * (ADR-047), whichever comes first.
 */
final class SaidYeses<S> {

    /**
     * A yes not yet granted: the key it was about, when it was about to be said, and the seat (one
     * keeper of the key) that said it: a keeper of the key kept again after a close said nothing, and
     * the closed one may have released what was handed to it.
     */
    record Yes<T>(LeaseKey key, long saidAt, T seat) {
    }

    /** A yes older than this is forgotten: dagnats asks for at most a second and writes at once after a yes. */
    private static final long YES_KEPT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final Map<String, Yes<S>> yeses = new ConcurrentHashMap<>();

    void said(String check, Yes<S> yes) {
        yeses.values().removeIf(old -> yes.saidAt() - old.saidAt() > YES_KEPT_NANOS);
        yeses.put(check, yes);
    }

    /** The yes to {@code check} about {@code key}, forgotten here; empty when there is none, or it was about another key. */
    Optional<Yes<S>> spend(String check, LeaseKey key) {
        Yes<S> yes = check == null ? null : yeses.get(check);
        if (yes == null || !yes.key().equals(key) || !yeses.remove(check, yes)) {
            return Optional.empty();
        }
        return Optional.of(yes);
    }
}
