package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.Tenure;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker of a holder's own fences: each belief above every earlier one, read from both records. */
class OwnedFencesTest {

    @Test
    void fencesThatRiseBreakNothingAndOneAtOrBelowAnEarlierOneIsNamed() {
        assertEquals(List.of(), OwnedFences.notAboveEveryEarlier(List.of(5L, 6L, 9L, 40L), "log"));
        assertEquals(List.of(
                "log: owned under fence 7 after fence 9 (belief 4 of 5)",
                "log: owned under fence 9 after fence 9 (belief 5 of 5)"),
                OwnedFences.notAboveEveryEarlier(List.of(5L, 6L, 9L, 7L, 9L), "log"));
    }

    @Test
    void fencesAreComparedAsTheUnsigned64BitNumbersTheyAre() {
        long aboveLongMax = Long.parseUnsignedLong("9223372036854775808");
        assertEquals(List.of(), OwnedFences.notAboveEveryEarlier(List.of(Long.MAX_VALUE, aboveLongMax), "log"));
        assertEquals(aboveLongMax, OwnedFences.highest(List.of(3L, aboveLongMax, Long.MAX_VALUE)));
    }

    @Test
    void theLogsOwnLinesOfTheKeyAndTheListenersTenuresAreRead() {
        List<String> lines = List.of(
                "100 k h h@1 own 5 5 900",
                "150 other h h@1 own 1 2 900",
                "200 k h h@1 own 5 6 950",
                "250 k h h@1 free 200",
                "260 - - h@1 gap 100",
                "300 k h h@1 late 950");
        assertEquals(List.of(5L, 6L), OwnedFences.fromLog(lines, "k"));

        Tenure granted = new Tenure(new LeaseKey("k"), new HolderId("h"), new Fence(5), new Fence(5), 0);
        List<ToldListener.Told> told = List.of(new ToldListener.Told(1, "becameOwner", granted),
                new ToldListener.Told(2, "renewed", granted.renewed(new Fence(8), 0, LeaseTtl.ofSeconds(15))),
                new ToldListener.Told(3, "stoppedOwning LOST", null));
        assertEquals(List.of(5L, 8L), OwnedFences.fromTold(told));
    }
}
