package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.internal.LeaseCalls;
import io.dagnats.leases.protocol.Answers;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** The lease calls as the test scripts them: each call waits until the test answers it. */
final class ScriptedCalls implements LeaseCalls {

    /** One call made: its operation, the fence it presented (if any), and the answer to give. */
    record Call(String operation, Fence presented, CompletableFuture<Object> answer, LeaseKey key) {
    }

    private final Deque<Call> pending = new ArrayDeque<>();
    private final List<Call> made = new ArrayList<>();

    @Override
    public CompletableFuture<Answers.Acquire> acquire(LeaseKey key, Claimant holder, LeaseTtl ttl) {
        return add("acquire", null, key).thenApply(Answers.Acquire.class::cast);
    }

    @Override
    public CompletableFuture<Answers.Renew> renew(LeaseKey key, Claimant holder, Fence revision, Optional<LeaseTtl> ttl) {
        return add("renew", revision, key).thenApply(Answers.Renew.class::cast);
    }

    @Override
    public CompletableFuture<Answers.Release> release(LeaseKey key, Claimant holder, Fence revision) {
        return add("release", revision, key).thenApply(Answers.Release.class::cast);
    }

    @Override
    public CompletableFuture<Answers.Handover> handover(LeaseKey key, Claimant holder, Fence revision,
            Claimant successor) {
        return add("handover", revision, key).thenApply(Answers.Handover.class::cast);
    }

    private CompletableFuture<Object> add(String operation, Fence presented, LeaseKey key) {
        Call call = new Call(operation, presented, new CompletableFuture<>(), key);
        pending.add(call);
        made.add(call);
        return call.answer();
    }

    /** The oldest unanswered call, which must be {@code operation}. */
    Call next(String operation) {
        Call call = pending.poll();
        if (call == null || !call.operation().equals(operation)) {
            throw new AssertionError("expected a " + operation + " call, but the next is " + call
                    + "; all calls: " + made);
        }
        return call;
    }

    boolean nothingPending() {
        return pending.isEmpty();
    }

    List<Call> made() {
        return List.copyOf(made);
    }
}
