package io.dagnats.leases.holder.internal.shards;

import static io.dagnats.leases.holder.internal.shards.ScriptedListings.held;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.holder.internal.KeyChanges;
import io.dagnats.leases.holder.internal.ManualScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A set lists its members, capacities and shards in one walk of {@code <set>-}, each page asked
 * once more when it fails. Neither may let a member believe a shard longer than three walks did:
 * the listing rests on the walk's begin however long its retried pages took, a walk with a page
 * failed twice is no listing, and what the prefix also matches (another set named
 * {@code <set>-...}, a plain lease) is no key of the set; a retried page's older write of a key
 * does not hide a later one.
 */
class SetListingRestsOnItsBeginAndItsOwnKeysTest {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final ShardKeys KEYS = new ShardKeys("rvs", 8);
    private static final HolderId ME = new HolderId("me");
    private static final HolderId OTHER = new HolderId("other");
    private static final Fence MINE = new Fence(77);

    private final ManualScheduler loop = new ManualScheduler();
    private final ScriptedListings nats = new ScriptedListings();
    private final KeyChanges changes = new KeyChanges(nats.connection);
    /** Every write the sight told of, as key@revision by holder. */
    private final List<String> written = new ArrayList<>();
    private final SetSight sight = new SetSight(KEYS, new LeaseClient(nats.connection), changes, loop, loop, TTL,
            ClientShardCalls::seen, () -> { }, (key, write) -> written.add(key.value() + "@" + write.revision() + " by "
                    + write.holder().map(HolderId::value).orElse("nobody")));
    /** When shard 3 was granted here at {@link #MINE}: before every walk below begins. */
    private final long grantedAt;

    SetListingRestsOnItsBeginAndItsOwnKeysTest() {
        changes.open(); // no events come: the facts are the listings'
        loop.advance(Duration.ofSeconds(1));
        grantedAt = loop.nanoTime();
        loop.advance(Duration.ofSeconds(1));
    }

    @Test
    void aWalkWhosePageWasAskedAgainRestsOnItsBeginNotOnItsLastPage() {
        long begun = loop.nanoTime();
        sight.lookAfresh();
        nats.answer(Optional.of("100"), held("rvs-member-me", ME, 70));
        loop.advance(TTL); // the second page is not answered for a TTL, then asked again
        nats.timeOut();
        nats.answer(Optional.empty(), held("rvs-shard-3", ME, MINE.revision()));
        loop.runDue();

        assertEquals(List.of(Optional.empty(), Optional.of("100"), Optional.of("100")),
                nats.asked.stream().map(asked -> asked.request().cursor()).toList());
        assertEquals(List.of("rvs-"), nats.asked.stream().map(asked -> asked.request().prefix().value()).distinct().toList());
        SetFacts facts = sight.facts();
        assertTrue(facts.listed());
        assertEquals(begun, facts.listedFrom(), "the listing shows the set from its begin, not from its retried page");
        assertFalse(facts.showsGone(3, ME, MINE, grantedAt));
        assertTrue(facts.unseenSince(grantedAt, begun + TTL.toNanos() + 1, TTL.toNanos()),
                "belief rests on the walk's begin: a TTL after it, unseen");
    }

    @Test
    void aWalkWhosePageFailedTwiceIsNoListing() {
        sight.lookAfresh();
        nats.answer(Optional.of("100"), held("rvs-shard-3", ME, MINE.revision()));
        nats.timeOut();
        nats.timeOut();
        loop.runDue();

        assertEquals(3, nats.asked.size(), "a page is asked twice, no more: " + nats.asked);
        SetFacts facts = sight.facts();
        assertFalse(facts.listed(), "the first page's sight of shard 3 is no listing");
        assertTrue(facts.unseenSince(grantedAt, grantedAt + TTL.toNanos() + 1, TTL.toNanos()));
    }

    /**
     * The holder's floors must know every write the sight sees as it sees it, also when no decision
     * follows (the member lease not held, so the set decides nothing): a listing of a store that went
     * back, taken before the next decision, would otherwise replace the highest write unlearnt.
     */
    @Test
    void everyListedWriteIsToldAsItIsListed() {
        sight.lookAfresh();
        nats.answer(Optional.empty(), held("rvs-shard-3", OTHER, 81), held("rvs-member-me", ME, 70));
        loop.runDue();

        assertEquals(List.of("rvs-member-me@70 by me", "rvs-shard-3@81 by other"), written.stream().sorted().toList());
    }

    /** A refusal is the same answer asked again: only a page dagnats could not serve is asked twice. */
    @Test
    void aRefusedPageIsNotAskedAgain() {
        sight.lookAfresh();
        nats.refuse(ErrorKind.FORBIDDEN);
        loop.runDue();

        assertEquals(1, nats.asked.size(), "forbidden is not asked again: " + nats.asked);
        assertFalse(sight.facts().listed());
    }

    @Test
    void keysOfOtherSetsAndPlainLeasesUnderTheSetsPrefixAreNoneOfItsKeys() {
        sight.lookAfresh();
        nats.answer(Optional.empty(),
                held("rvs-eu-shard-3", ME, 81), held("rvs-eu-member-me", ME, 80), held("rvs-eu-capacity-me", ME, 82),
                held("rvs-shard-shard-3", ME, 83), held("rvs-shard-03", ME, 84), held("rvs-shard-3-x", ME, 85),
                held("rvs-shard-33", ME, 86), held("rvs-member-other", ME, 87), held("rvs-x-member-me", ME, 88));
        loop.runDue();

        SetFacts facts = sight.facts();
        assertTrue(facts.listed());
        assertEquals(Optional.empty(), facts.shard(3));
        assertTrue(facts.showsGone(3, ME, MINE, grantedAt), "the set's own shard 3 was not listed: free since the walk began");
        assertEquals(Map.of(), facts.members(), "a member key counts only held by the holder it names");
        assertEquals(Map.of(), facts.owners());
        assertEquals(Map.of(), facts.capacities());
    }

    @Test
    void aRetriedPageWithAnOlderWriteOfAShardThanAPageBeforeItKeepsTheLaterWrite() {
        sight.lookAfresh();
        nats.answer(Optional.of("100"), held("rvs-shard-3", OTHER, 90));
        nats.timeOut();
        nats.answer(Optional.empty(), held("rvs-shard-3", ME, MINE.revision())); // a replica that lags
        loop.runDue();

        SetFacts facts = sight.facts();
        assertEquals(Optional.of(OTHER), facts.shard(3).flatMap(SetFacts.Seen::holder));
        assertTrue(facts.showsGone(3, ME, MINE, grantedAt), "shard 3 was written at 90 since its grant here at 77");
    }

}
