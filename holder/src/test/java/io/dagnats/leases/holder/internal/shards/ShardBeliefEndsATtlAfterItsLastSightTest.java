package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A shard has no renew of its own, so its owner learns of a revoke only from the event or from a
 * listing begun after its grant; when both fail, belief still ends a TTL after the grant or the
 * last listing that showed the set. Found by a review.
 */
class ShardBeliefEndsATtlAfterItsLastSightTest extends OwnShardsFixture {

    ShardBeliefEndsATtlAfterItsLastSightTest() {
        super(Duration.ofSeconds(30));
    }

    /**
     * Interleaving: A owns shard 3 at 77. An operator revokes the shard key (80) and B attaches it
     * (81); A's connection to dagnats drops those events (a slow consumer, a reconnect), and A's
     * listings of the set time out (the benchmark saw them time out under load; "it decides from
     * the events it saw"). A's member lease renews all along, so A believes shard 3 at 77 for as
     * long as the listings fail (three TTLs here) while B believes it at 81: two owners, with no
     * bound. operating.md promises the listing every third of the TTL ends the belief; a listing
     * that fails ends nothing.
     */
    @Test
    void aShardIsNotBelievedForATtlWithNoSightOfTheSetSinceItsGrant() {
        owned(3, 77);
        seen = seen.listed(Map.of(KEYS.shard(3), write(Optional.of(ME), 77, SetFacts.Seen.LISTED)), seen.step(),
                loop.nanoTime(), loop.nanoTime()); // the last listing to succeed, right after the grant
        for (int look = 0; look < 9; look++) {
            loop.advance(TTL.dividedBy(3)); // a listing begins and times out; the events of 80 and 81 were lost
            own.forgetGone(seen);
        }

        assertEquals(Set.of(), own.believed(member), "three TTLs with no sight of the key since: " + record);
    }
}
