package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseWrite;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** Whether the {@code leases} bucket can serve leases, and why not. */
public sealed interface BucketStatus {

    /** One line for operators. */
    String describe();

    /**
     * The verdict without the bucket's settings, for the start line and {@code /readyz}
     * (issue 29: 859 and 470 characters were more than a probe or a glance wants); the
     * settings are in {@link #describe()} and {@code dagnats status}.
     */
    default String summary() {
        return describe();
    }

    /**
     * Why a lease call is not served under this status, as the error it is answered
     * with; empty when the bucket is ready. The one place that decides: the service
     * asks it once per request, before reading the request.
     */
    Optional<Refusal> refusal();

    /**
     * This status as ready; otherwise the failure a call is answered with under it (the
     * dispatcher refused the call already, unless the status changed since).
     *
     * @throws LeaseFailure with the {@link #refusal()}'s kind and sentence
     */
    default Ready orFail() {
        if (this instanceof Ready ready) {
            return ready;
        }
        Refusal refusal = refusal().orElseThrow();
        throw new LeaseFailure(refusal.kind(), refusal.sentence());
    }

    /** A lease call answered without being served: the error kind and its sentence. */
    record Refusal(ErrorKind kind, String sentence) {

        public Refusal {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(sentence, "sentence");
        }
    }

    /**
     * The bucket is there and every setting lease safety rests on holds: leases are served.
     *
     * @param grantsFrom when the bucket replaced one whose owners may still act: no free key is
     *                   granted before this instant (ADR-026)
     * @param directGets whether the stream answers direct gets ({@code allow_direct}), which a
     *                   listing reads in batches; never used for a lease call's read
     */
    record Ready(String settings, BucketIdentity identity, Optional<Instant> grantsFrom, boolean directGets)
            implements BucketStatus {

        public Ready {
            Objects.requireNonNull(settings, "settings");
            Objects.requireNonNull(identity, "identity");
            Objects.requireNonNull(grantsFrom, "grantsFrom");
        }

        @Override
        public String summary() {
            return "leases supported" + grantsFrom.map(from -> "; no free key is granted until " + from
                    + " (it replaced an earlier bucket)").orElse("");
        }

        @Override
        public String describe() {
            return "leases supported (" + settings + ")"
                    + grantsFrom.map(from -> "; it replaced an earlier bucket, whose owners may act until their"
                            + " leases run out: no free key is granted until " + from).orElse("");
        }

        @Override
        public Optional<Refusal> refusal() {
            return Optional.empty();
        }

        /**
         * Why no free key may be granted at {@code now}, as a sentence saying until when; empty
         * when it may. The one place that decides.
         */
        public Optional<String> grantsWithheld(Instant now) {
            if (grantsFrom.isEmpty() || !now.isBefore(grantsFrom.get())) {
                return Optional.empty();
            }
            return Optional.of("the leases bucket was replaced (the new one created " + identity.created()
                    + ") and owners of the old one may act until their leases run out, so no free key is granted"
                    + " until " + grantsFrom.get() + "; retry then");
        }

        /**
         * Why {@code write} may not be sent at {@code now}; empty when it may. While grants are
         * withheld, no lease in this bucket can be legitimate (one that reached it anyway came from
         * a stale instance, a raw write, or a timed-out acquire flushed after a reconnect): every
         * put, acquire or renew, is withheld, so such a lease never turns into ownership. A release
         * may pass.
         */
        public Optional<String> writeWithheld(LeaseWrite write, Instant now) {
            if (!(write instanceof LeaseWrite.Put put)) {
                return Optional.empty();
            }
            return grantsWithheld(now).map(why -> put.event() == LeaseEvent.ACQUIRED ? why
                    : "no lease in a replacement bucket can be renewed during its grace: " + why);
        }
    }

    /**
     * The server or the bucket cannot serve leases safely; every lease call answers {@code kind}
     * ({@code unsupported}, unless said otherwise) with this reason, until the bucket is judged again
     * and found safe.
     *
     * @param kind {@link ErrorKind#UNSUPPORTED} ("do not retry") when no replica can serve, as on a
     *             pre-2.11 server; {@link ErrorKind#UNAVAILABLE} when only this replica cannot and
     *             another replica of the queue group may (a bucket recorded for the other identity mode)
     */
    record Unsupported(String reason, ErrorKind kind) implements BucketStatus {

        public Unsupported {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(kind, "kind");
        }

        public Unsupported(String reason) {
            this(reason, ErrorKind.UNSUPPORTED);
        }

        /** This replica's refusal of a bucket another replica may serve: callers retry ({@code unavailable}). */
        public static Unsupported forThisReplica(String reason) {
            return new Unsupported(reason, ErrorKind.UNAVAILABLE);
        }

        @Override
        public String describe() {
            return "leases unsupported: " + reason;
        }

        @Override
        public Optional<Refusal> refusal() {
            return Optional.of(new Refusal(kind, reason));
        }
    }

    /**
     * JetStream has not answered yet, or the bucket changed under the service and is being
     * checked again; calls answer {@code unavailable} until it is known which bucket serves.
     */
    record Pending(String reason) implements BucketStatus {
        @Override
        public String describe() {
            return "leases not ready yet: " + reason;
        }

        @Override
        public Optional<Refusal> refusal() {
            return Optional.of(new Refusal(ErrorKind.UNAVAILABLE, describe()));
        }
    }
}
