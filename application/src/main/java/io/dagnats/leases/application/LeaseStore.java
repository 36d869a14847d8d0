package io.dagnats.leases.application;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.LeaseTtl;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Where leases live, and the only thing that can make one expire: the store
 * frees a key {@code ttl} after its last write, whatever any clock says.
 *
 * <p>Every method answers asynchronously and never blocks the caller's thread.
 * A stage that fails does so with {@link LeaseFailure}: {@link ErrorKind#UNAVAILABLE}
 * when the store did not answer in time, {@link ErrorKind#UNSUPPORTED} when it
 * cannot serve leases, {@link ErrorKind#INTERNAL} for a record it cannot read.
 */
public interface LeaseStore {

    /**
     * Reads a key as the store's leader sees it, so a lagging replica can never
     * report a stale owner. A key that was never written, was released, or
     * expired is {@link KeyState.Free}, never absent.
     */
    CompletionStage<KeyState> read(LeaseKey key);

    /**
     * Applies {@code write} only if the key's last sequence is still
     * {@link LeaseWrite#expectedSequence()}. A write that loses that race is the
     * normal answer {@link WriteOutcome.Conflict}, and changes nothing. A put (an acquire or
     * a renew) may be {@link WriteOutcome.Withheld}: not sent at all, because the store replaced
     * one whose owners may still act.
     */
    CompletionStage<WriteOutcome> write(LeaseWrite write);

    /**
     * Which incarnation of the store answers now. It changes when the store is
     * replaced (its bucket deleted and created again), and with it everything
     * remembered of the old one must go. Never blocks; {@link Identity#NONE}
     * while the store does not serve.
     */
    Identity identity();

    /**
     * The one way back from the core to the store (ADR-038): what an answer of the store proved
     * about the store itself. Returns at once and never fails; a decorator forwards it as it is.
     *
     * @return the store's own sentence, when {@link Evidence.PresentedAbove} proved it went back;
     *         empty otherwise
     */
    CompletionStage<Optional<String>> report(Evidence evidence);

    /** What one call learnt of the store from its answers, reported back to it. */
    sealed interface Evidence {

        /**
         * An answer contradicts an earlier one of the same identity (a key's sequence went back):
         * the store is not the one it was. The store stops serving until it has checked again what
         * it stands on.
         */
        record Contradicted(String evidence) implements Evidence {
            public Contradicted {
                Objects.requireNonNull(evidence, "evidence");
            }
        }

        /**
         * An answer named another write at a revision already seen (another holder, incarnation,
         * acquire time or tenure): the store hands out revisions again, as a bucket recreated from a
         * copy of its own configuration does (ADR-035). The store keeps serving, but its
         * {@link #identity()} no longer claims that its revisions never repeat until it has been
         * judged again, so nothing proposes a write from memory on it.
         */
        record RevisionsRepeat(String evidence) implements Evidence {
            public RevisionsRepeat {
                Objects.requireNonNull(evidence, "evidence");
            }
        }

        /**
         * A revision a caller presented for {@code key} (a renew or release answered lost, the leader
         * read showing the key below it), for the store to check against its last sequence as read
         * now, after that read: a store whose sequences only grow cannot end below a revision it
         * issued, so a last sequence below {@code presented} proves the store went back (a crash lost
         * acknowledged writes, or a copy of its files was restored, ADR-037). The store then stops
         * trusting its revisions as the memory's (as after {@link RevisionsRepeat}, without its log
         * line), logs one line, answers its sentence, and starts its next revisions above every one
         * issued before. A revision too far above to be a rollback proves nothing.
         *
         * @param ttl the TTL the renew asked for, if any: the grace before the key is granted again covers it
         */
        record PresentedAbove(LeaseKey key, Fence presented, Optional<LeaseTtl> ttl) implements Evidence {
            public PresentedAbove {
                Objects.requireNonNull(key, "key");
                Objects.requireNonNull(presented, "presented");
                Objects.requireNonNull(ttl, "ttl");
            }
        }
    }

    /**
     * One incarnation of the store.
     *
     * @param name          differs between incarnations
     * @param neverRepeats  the store's sequences are known to start above every fence an earlier
     *                      incarnation can have handed out; only then may remembered state
     *                      propose a write (a remembered revision can then never match a new write)
     */
    record Identity(String name, boolean neverRepeats) {
        /** A store that does not serve: nothing is remembered of it. */
        public static final Identity NONE = new Identity("none", false);

        public Identity {
            Objects.requireNonNull(name, "name");
        }
    }

    /** What became of one compare-and-set write. */
    sealed interface WriteOutcome {

        /** Applied: {@code revision} is the new fence. */
        record Written(Fence revision) implements WriteOutcome {
        }

        /** Not applied: the key moved on since it was read. */
        record Conflict() implements WriteOutcome {
        }

        /**
         * Not applied, and not sent: the store grants and renews nothing now. Only ever the
         * outcome of a put (acquire or renew; a release passes), while the store is a replacement
         * whose predecessor's owners may still believe they own, so no lease in it can be
         * legitimate yet (ADR-026). The caller answers
         * {@link ErrorKind#UNAVAILABLE} with {@code reason}, which says why and until when.
         */
        record Withheld(String reason) implements WriteOutcome {
            public Withheld {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }
}
