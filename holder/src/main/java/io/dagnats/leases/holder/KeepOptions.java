package io.dagnats.leases.holder;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a key is kept beyond its TTL: whether this process is a visible candidate (with what makes
 * it preferable), whom the owner prefers ({@link Succession}), the brakes against flapping, and
 * how long a handover or close waits for the work of the tenure ({@link TenureWork}).
 *
 * <pre>{@code
 * KeepOptions.defaults().candidacy(0, "2.4.1").succession(Succession.oldestVersionFirst())
 * }</pre>
 *
 * @param candidacy     this process's priority and version, answered on the candidates subjects;
 *                      empty: it answers nothing, so no owner hands it the key
 * @param succession    whom an owner prefers; {@link Succession#none()} never yields while healthy
 * @param minCandidacy  a better candidate is yielded to only once it has wanted the key this long
 * @param yieldInterval an owner yields at most once per this interval
 * @param handoverBound how long a handover or close waits for the tenure's work to return
 */
public record KeepOptions(Optional<Priority> candidacy, Succession succession, Duration minCandidacy,
        Duration yieldInterval, Duration handoverBound) {

    /** What a candidate says of itself; its version follows the wire's rule (printable ASCII, at most 256). */
    public record Priority(int priority, String version) {
        public Priority {
            Objects.requireNonNull(version, "version");
            io.dagnats.leases.protocol.Candidate.requireVersion(version);
        }
    }

    public KeepOptions {
        Objects.requireNonNull(candidacy, "candidacy");
        Objects.requireNonNull(succession, "succession");
        for (Duration duration : new Duration[] {minCandidacy, yieldInterval, handoverBound}) {
            if (Objects.requireNonNull(duration, "duration").isNegative()) {
                throw new IllegalArgumentException("a brake or bound cannot be negative: " + duration);
            }
        }
    }

    /** No candidacy, {@link Succession#none()}, brakes 10 s and 60 s, a 5 s handover bound. */
    public static KeepOptions defaults() {
        return new KeepOptions(Optional.empty(), Succession.none(), Duration.ofSeconds(10), Duration.ofSeconds(60),
                Duration.ofSeconds(5));
    }

    public KeepOptions candidacy(int priority, String version) {
        return new KeepOptions(Optional.of(new Priority(priority, version)), succession, minCandidacy, yieldInterval,
                handoverBound);
    }

    public KeepOptions succession(Succession strategy) {
        return new KeepOptions(candidacy, strategy, minCandidacy, yieldInterval, handoverBound);
    }

    public KeepOptions minCandidacy(Duration present) {
        return new KeepOptions(candidacy, succession, present, yieldInterval, handoverBound);
    }

    public KeepOptions yieldInterval(Duration interval) {
        return new KeepOptions(candidacy, succession, minCandidacy, interval, handoverBound);
    }

    public KeepOptions handoverBound(Duration bound) {
        return new KeepOptions(candidacy, succession, minCandidacy, yieldInterval, bound);
    }
}
