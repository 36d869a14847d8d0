package io.dagnats.leases.holder.internal.keeper;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.internal.Ownership;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link KeptLease} a holder hands out: a handle on one {@link LeaseKeeper}, whose queries read
 * the keeper's {@link Ownership}. Internal: the shard sets also abandon through it.
 */
public final class KeptLeaseHandle implements KeptLease {

    /** How soon a waiter woken by a close sees the release it then waits for. */
    private static final long CLOSE_LOOK_NANOS = 50_000_000;

    private static final System.Logger LOG = System.getLogger("io.dagnats.leases.holder.KeptLease");

    private final LeaseKeeper keeper;
    private final Ownership ownership;
    private final Runnable onClose;

    /** @param onClose run once the keeper has closed, whether or not it released in time */
    public KeptLeaseHandle(LeaseKeeper keeper, Runnable onClose) {
        this.keeper = keeper;
        this.ownership = keeper.ownership();
        this.onClose = onClose;
    }

    /** The state machine behind this handle, for the holder that made it. */
    public LeaseKeeper keeper() {
        return keeper;
    }

    @Override
    public LeaseKey key() {
        return keeper.key();
    }

    @Override
    public HolderId holder() {
        return keeper.holder();
    }

    @Override
    public boolean isOwner() {
        return ownership.isOwner();
    }

    @Override
    public Optional<Tenure> tenure() {
        return ownership.tenure();
    }

    @Override
    public Optional<OwnershipListener.StopReason> lastStop() {
        return keeper.sight().lastStop();
    }

    @Override
    public Optional<Fence> fence() {
        return tenure().map(Tenure::fence);
    }

    @Override
    public Optional<Tenure> awaitOwnership(Duration timeout) throws InterruptedException {
        long timeoutNanos = nanosAtMostALong(Objects.requireNonNull(timeout, "timeout"));
        long start = System.nanoTime();
        CompletableFuture<Void> closed = keeper.closedStage();
        while (true) {
            CompletableFuture<Void> change = ownership.nextChange();
            Optional<Tenure> tenure = ownership.tenure();
            // Elapsed time subtracted, not a deadline added: start + a saturated timeout would overflow.
            long left = timeoutNanos - (System.nanoTime() - start);
            if (tenure.isPresent() || closed.isDone() || left <= 0) {
                return tenure;
            }
            try {
                // A timed get leaves nothing registered when it times out (anyOf's relay would stay
                // on both stages for the lease's life); a close ends the ownership, which wakes this
                // wait, and the release it then waits for is seen within CLOSE_LOOK_NANOS.
                change.get(Math.min(left, CLOSE_LOOK_NANOS), TimeUnit.NANOSECONDS);
            } catch (TimeoutException lookAgain) {
                // the loop looks at the tenure, the close and the time left
            } catch (ExecutionException cannotHappen) {
                // the stage never fails
            }
        }
    }

    /**
     * {@code timeout} in nanoseconds, from none (a negative timeout waits no more than zero) to the
     * most a long counts (about 292 years) for a longer one: so the time left never overflows.
     */
    static long nanosAtMostALong(Duration timeout) {
        try {
            return Math.max(0, timeout.toNanos());
        } catch (ArithmeticException longerThanALongCounts) {
            return timeout.isNegative() ? 0 : Long.MAX_VALUE;
        }
    }

    @Override
    public void close() {
        end(keeper.beginClose());
    }

    /**
     * Stops keeping the key without releasing it: stops acting as owner and renewing
     * now, and leaves the key to the server's TTL, which runs out only after the
     * deadline of every tenure this process was given. For work that may still run
     * under one of those tenures (a drain past its bound).
     */
    public void abandon() {
        end(keeper.beginAbandon());
    }

    private void end(CompletableFuture<Void> ended) {
        try {
            ended.get(10, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException slow) {
            LOG.log(System.Logger.Level.WARNING, "lease " + key() + " was not closed in time; the server's TTL will free it");
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } finally {
            onClose.run();
        }
    }
}
