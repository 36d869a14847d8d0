package io.dagnats.leases.holder.internal.keeper;

import java.util.PriorityQueue;

/** The model's one timeline: actions due at moments of the monotonic clock, run in time order, ties in the order added. */
final class ModelledQueue {

    private record Item(long at, long order, Runnable action) {
    }

    private final PriorityQueue<Item> items = new PriorityQueue<>((l, r) -> l.at != r.at ? Long.compare(l.at, r.at)
            : Long.compare(l.order, r.order));
    private long order;

    void clear() {
        items.clear();
    }

    void add(long atNanos, Runnable action) {
        items.add(new Item(atNanos, order++, action));
    }

    boolean isEmpty() {
        return items.isEmpty();
    }

    long nextAt() {
        return items.peek().at();
    }

    Runnable next() {
        return items.poll().action();
    }
}
