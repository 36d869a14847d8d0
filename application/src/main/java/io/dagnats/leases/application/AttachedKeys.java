package io.dagnats.leases.application;

import io.dagnats.leases.domain.AttachRules;
import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.FreedAttachment;
import io.dagnats.leases.domain.Attaching;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Moving;
import io.dagnats.leases.domain.Release;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * attach, detach and move of keys attached to a member lease (ADR-043): each its rules
 * ({@link AttachRules}) around the one {@link LeaseWriter}, so the memory of known leases, the
 * withheld puts of a bucket in grace and the fence skip apply to them as to an acquire. The member
 * lease an attach or move names is read through the leader first; nothing is written unless it is
 * live in the tenure named. It may end right after that read: the key is then attached to a
 * tenure that ended, which the liveness rule answers free, so no owner is ever made by a stale read.
 */
public final class AttachedKeys {

    /** @param attachment the caller's member lease and its tenure, and the value stored with the key */
    public record Attach(LeaseKey key, Claimant holder, Attachment attachment) {
        public Attach {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(attachment, "attachment");
        }
    }

    public record Detach(LeaseKey key, Claimant holder, Fence revision) {
        public Detach {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(revision, "revision");
        }
    }

    /**
     * @param toHolder      the successor's holder id; its principal (identity mode) is the one that holds
     *                      {@code to}'s member lease
     * @param toIncarnation the successor's incarnation, as its member lease names it
     */
    public record Move(LeaseKey key, Claimant holder, Fence revision, HolderId toHolder,
            Optional<Incarnation> toIncarnation, Attachment to) {
        public Move {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(holder, "holder");
            Objects.requireNonNull(revision, "revision");
            Objects.requireNonNull(toHolder, "toHolder");
            Objects.requireNonNull(toIncarnation, "toIncarnation");
            Objects.requireNonNull(to, "to");
        }
    }

    /**
     * Freed writes in flight at once: 10 000 keys of one member take about 40 round trips' time, not
     * 10 000, and the store is never sent more than this at once for one member's end.
     */
    static final int FREE_WINDOW = 256;

    private final LeaseWriter writer;

    public AttachedKeys(LeaseWriter writer) {
        this.writer = Objects.requireNonNull(writer, "writer");
    }

    /** Granted (new or the same), held by another, or lost when the member lease is not the caller's. */
    public CompletionStage<Attaching> attach(Attach command) {
        Attachment attachment = command.attachment();
        return writer.begin().read(attachment.member()).thenCompose(member -> {
            var live = AttachRules.liveMember(member, command.holder(), attachment.memberTenure());
            if (live.isEmpty()) {
                return CompletableFuture.completedFuture(
                        AttachRules.memberNotHeld(command.key(), attachment.member(), attachment.memberTenure()));
            }
            // A key this instance has not seen is tried as never written, as an acquire is.
            return writer.write(command.key(), true,
                    state -> AttachRules.attach(state, live.get(), command.holder(), attachment, writer.now()),
                    (write, written) -> new Attaching.Granted(((LeaseWrite.Put) write).leaseAt(written.revision())));
        });
    }

    /** The era of the store's memory now: records learnt now are of it ({@link #free}). */
    public KnownLeases.Era memory() {
        return writer.era();
    }

    /**
     * Writes the {@code freed} event (the release form, compare-and-set on each record's revision) on every
     * key of {@code attached} whose member tenure ended before {@code memberEndedAt}, {@link #FREE_WINDOW}
     * at a time, with no read: a key written since (moved, detached, attached anew, freed by another
     * instance) refuses the write, which is fine. Never fails; nothing here changes an owner, the keys
     * were free by the liveness rule from their member's end.
     *
     * <p>The records are memory of revisions, so the memory's rule holds for them (ADR-025, ADR-035,
     * ADR-037): nothing is proposed unless they were learnt in the era the memory is still in and the
     * store's revisions never repeat; a revision repeated after a rollback or a recreated bucket could
     * name another, live write, which the compare-and-set alone cannot tell apart. Nothing written is
     * a lost event, never a lost owner.
     *
     * @param learnt the era of the memory the records were learnt in ({@link #memory})
     * @return how many freed writes applied
     */
    public CompletionStage<Integer> free(List<AttachedRecord> attached, long memberEndedAt, KnownLeases.Era learnt) {
        if (!writer.mayProposeFrom(learnt)) {
            return CompletableFuture.completedFuture(0);
        }
        List<LeaseWrite.Tombstone> writes = new ArrayList<>(attached.size());
        for (AttachedRecord record : attached) {
            FreedAttachment.after(record, memberEndedAt).ifPresent(writes::add);
        }
        AtomicInteger next = new AtomicInteger();
        AtomicInteger applied = new AtomicInteger();
        List<CompletableFuture<Void>> lanes = new ArrayList<>();
        for (int lane = 0; lane < Math.min(FREE_WINDOW, writes.size()); lane++) {
            lanes.add(lane(writes, next, applied));
        }
        return CompletableFuture.allOf(lanes.toArray(CompletableFuture[]::new)).thenApply(done -> applied.get());
    }

    /** One of the writes in flight: when it is answered, the next write not yet sent. */
    private CompletableFuture<Void> lane(List<LeaseWrite.Tombstone> writes, AtomicInteger next, AtomicInteger applied) {
        int index = next.getAndIncrement();
        if (index >= writes.size()) {
            return CompletableFuture.completedFuture(null);
        }
        return writer.propose(writes.get(index)).toCompletableFuture()
                .handle((outcome, failed) -> {
                    if (outcome instanceof LeaseStore.WriteOutcome.Written) {
                        applied.incrementAndGet();
                    }
                    return null;
                })
                .thenCompose(answered -> lane(writes, next, applied));
    }

    /** Released (the release form, as a release writes it), or lost as a release is. */
    public CompletionStage<Release> detach(Detach command) {
        PresentedRevision<Release> presented = new PresentedRevision<>(command.key(), command.revision(),
                Optional.empty());
        return writer.write(command.key(), false,
                presented.watching(state -> AttachRules.detach(state, command.holder(), command.revision())),
                (write, written) -> (Release) new Release.Released(write.key(), write.holder(), written.revision()))
                .thenCompose(release -> presented.checked(writer, release));
    }

    /** Moved to the successor at a new fence; lost as a release is; or no successor, nothing written. */
    public CompletionStage<Moving> move(Move command) {
        Attachment to = command.to();
        return writer.begin().read(to.member()).thenCompose(member -> {
            var successor = AttachRules.liveSuccessor(member, command.toHolder(), command.toIncarnation(),
                    to.memberTenure());
            if (successor.isEmpty()) {
                return CompletableFuture.completedFuture(new Moving.NoSuccessor(command.key(), to.member(),
                        "the successor " + new Claimant(command.toHolder(), command.toIncarnation())
                                + " does not hold member lease " + to.member() + " in the tenure begun at "
                                + to.memberTenure()));
            }
            PresentedRevision<Moving> presented = new PresentedRevision<>(command.key(), command.revision(),
                    Optional.empty());
            return writer.write(command.key(), false,
                    presented.watching(state -> AttachRules.move(state, command.holder(), command.revision(),
                            successor.get(), to, writer.now())),
                    (write, written) -> (Moving) new Moving.Moved(((LeaseWrite.Put) write).leaseAt(written.revision())))
                    .thenCompose(moved -> presented.checked(writer, moved));
        });
    }
}
