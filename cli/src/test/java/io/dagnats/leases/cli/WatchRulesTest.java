package io.dagnats.leases.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the watch prints and says as the stream delivers, and as the connection drops and returns. */
class WatchRulesTest {

    private WatchRules.State state = WatchRules.State.startingAt(100);
    private final List<String> said = new ArrayList<>();

    private boolean delivered(long revision, long pending) {
        return apply(WatchRules.delivered(state, revision, pending));
    }

    private boolean apply(WatchRules.Step step) {
        state = step.state();
        said.addAll(step.notices());
        return step.print();
    }

    @Test
    void fromAHeldRevisionEveryRevisionIsPrintedOnceInOrderAndNothingIsSaid() {
        assertTrue(delivered(100, 1));
        assertTrue(delivered(101, 0));
        assertFalse(delivered(101, 0), "a revision delivered again is not printed twice");
        assertFalse(delivered(99, 0));
        assertTrue(delivered(102, 0));

        assertEquals(List.of(), said);
        assertEquals(103, state.next());
    }

    @Test
    void aStartAtARevisionNoLongerHeldSaysSoOnceNamingTheFirstHeld() {
        assertTrue(delivered(140, 5));

        assertEquals(List.of("the bucket no longer holds revisions 100 to 139; the first revision it holds from there is"
                + " 140 (" + WatchRules.NOT_HELD_BECAUSE + ")"), said);
    }

    @Test
    void skipsWhileCatchingUpAreCountedAndSaidOnceCaughtUp() {
        delivered(100, 3);
        delivered(104, 2);
        delivered(105, 1);
        delivered(110, 0);

        assertEquals(List.of("caught up at revision 110: 7 revisions from 101 on are no longer in the bucket ("
                + WatchRules.NOT_HELD_BECAUSE + ")"), said);
        delivered(111, 0);
        assertEquals(1, said.size(), "nothing more skipped, nothing more said");
    }

    @Test
    void aDroppedConnectionIsSaidOnceHoweverOftenJnatsRetriesAndItsReturnOnce() {
        delivered(100, 0);
        apply(WatchRules.lost(state));
        apply(WatchRules.lost(state));
        apply(WatchRules.lost(state));
        apply(WatchRules.back(state));
        apply(WatchRules.back(state));

        assertEquals(List.of("NATS connection lost; the watch resumes from revision 101 when it is back",
                "NATS connection back; resuming from revision 101"), said);
    }

    @Test
    void afterAResumeTheFirstRevisionPastTheNextSaysWhatTheBucketNoLongerHolds() {
        delivered(100, 0);
        apply(WatchRules.lost(state));
        apply(WatchRules.back(state));
        said.clear();

        assertFalse(delivered(100, 0), "the last printed, delivered again by the new consumer");
        assertTrue(delivered(102, 0));
        assertTrue(delivered(103, 0));

        assertEquals(List.of("the bucket no longer holds revision 101; the first revision it holds from there is 102 ("
                + WatchRules.NOT_HELD_BECAUSE + ")"), said);
        assertEquals(WatchRules.Phase.FOLLOWING, state.phase());
    }

    @Test
    void whatIsStillQueuedWhenTheConnectionDropsIsPrintedAndTheResumeGoesOnAfterIt() {
        delivered(100, 0);
        apply(WatchRules.lost(state));
        assertTrue(delivered(101, 0));
        apply(WatchRules.back(state));

        assertEquals("NATS connection back; resuming from revision 102", said.get(1));
    }
}
