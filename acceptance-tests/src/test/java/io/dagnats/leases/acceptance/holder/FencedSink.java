package io.dagnats.leases.acceptance.holder;

import java.util.ArrayList;
import java.util.List;

/**
 * A downstream store as the holder rules ask for: it refuses any write whose
 * fence is below the highest fence it has seen, which stops a holder that was
 * paused and woke up believing it still owns the lease.
 */
final class FencedSink {

    record Write(long fence, String writer, String value) {
    }

    private long highestFence;
    private final List<Write> accepted = new ArrayList<>();
    private final List<Write> refused = new ArrayList<>();

    synchronized boolean write(long fence, String writer, String value) {
        Write write = new Write(fence, writer, value);
        if (fence < highestFence) {
            refused.add(write);
            return false;
        }
        highestFence = fence;
        accepted.add(write);
        return true;
    }

    synchronized List<Write> accepted() {
        return List.copyOf(accepted);
    }

    synchronized List<Write> refused() {
        return List.copyOf(refused);
    }
}
