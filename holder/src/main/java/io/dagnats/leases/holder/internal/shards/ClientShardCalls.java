package io.dagnats.leases.holder.internal.shards;

import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** {@link ShardCalls} over the wire (ADR-043), as one holder: its id and incarnation. */
final class ClientShardCalls implements ShardCalls {

    private final LeaseClient client;
    private final Claimant self;

    ClientShardCalls(LeaseClient client, Claimant self) {
        this.client = client;
        this.self = self;
    }

    @Override
    public CompletableFuture<Attached> attach(LeaseKey key, LeaseKey member, Fence memberTenure, Optional<String> value) {
        return client.attach(key, self, member, memberTenure, value).thenApply(answer -> {
            if (answer instanceof Answers.Attach.Granted granted && granted.lease().attachment().isPresent()) {
                return new Attached.Granted(granted.lease().revision(), granted.lease().attachment().get().memberTenure());
            }
            // A grant that names no member lease is no attachment this member can own by.
            return answer instanceof Answers.Attach.HeldByOther other ? new Attached.HeldByOther(other.lease().holder())
                    : new Attached.MemberLost();
        });
    }

    @Override
    public CompletableFuture<Boolean> detach(LeaseKey key, Fence revision) {
        return client.detach(key, self, revision).thenApply(answer -> answer instanceof Answers.Release.Released);
    }

    @Override
    public CompletableFuture<Moved> move(LeaseKey key, Fence revision, Target to) {
        return client.move(key, self, revision, new Claimant(to.holder(), to.incarnation()), to.member(), to.memberTenure())
                .thenApply(answer -> answer instanceof Answers.Move.Moved moved ? new Moved.Done(moved.lease().revision())
                        : answer instanceof Answers.Move.NoSuccessor ? new Moved.NoSuccessor() : new Moved.Lost());
    }

    /** What a listed lease shows of a key of the set: a member's tenure start, an attached key's member tenure and value. */
    static SetFacts.Seen seen(LeaseView lease) {
        Optional<Fence> tenure = lease.attachment().map(Attachment::memberTenure).or(lease::tenure);
        return new SetFacts.Seen(Optional.of(lease.holder()), lease.incarnation(), lease.revision().revision(), tenure,
                lease.attachment().flatMap(Attachment::value), SetFacts.Seen.LISTED);
    }
}
