package io.dagnats.leases.acceptance.harness;

import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.OwnershipListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link OwnershipListener} that writes down what it was told and when: the one
 * recording listener of the in-process holder tests.
 *
 * <p>{@link #events} is the short story ({@code owner@<start>}, {@code stopped:<reason>}),
 * without renewals; {@link #told} is every call, renewals included, on System.nanoTime.
 */
public final class ToldListener implements OwnershipListener {

    /** One call, and when it came; {@code tenure} is null for {@code stoppedOwning}. */
    public record Told(long nanos, String what, Tenure tenure) {
        @Override
        public String toString() {
            return what + (tenure == null ? "" : " start " + tenure.start().revision() + " fence "
                    + tenure.fence().revision());
        }
    }

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<Told> told = new CopyOnWriteArrayList<>();
    private final AtomicLong firstStoppedAtNanos = new AtomicLong();

    @Override
    public void becameOwner(Tenure tenure) {
        told.add(new Told(System.nanoTime(), "becameOwner", tenure));
        events.add("owner@" + tenure.start());
    }

    @Override
    public void renewed(Tenure tenure) {
        told.add(new Told(System.nanoTime(), "renewed", tenure));
    }

    @Override
    public void stoppedOwning(StopReason reason) {
        firstStoppedAtNanos.compareAndSet(0, System.nanoTime());
        told.add(new Told(System.nanoTime(), "stoppedOwning " + reason, null));
        events.add("stopped:" + reason);
    }

    /** {@code owner@<start>} and {@code stopped:<reason>}, in order. */
    public List<String> events() {
        return events;
    }

    /** Every call, in order. */
    public List<Told> told() {
        return told;
    }

    /** How many calls {@code what} names ({@code becameOwner}, {@code renewed}, {@code stoppedOwning LOST}). */
    public int count(String what) {
        return (int) told.stream().filter(one -> one.what().equals(what)).count();
    }

    /** How many {@code stoppedOwning} calls, whatever the reason. */
    public int stops() {
        return (int) told.stream().filter(one -> one.what().startsWith("stoppedOwning")).count();
    }

    /** When {@code stoppedOwning} was first called; 0 if never. */
    public long firstStoppedAtNanos() {
        return firstStoppedAtNanos.get();
    }
}
