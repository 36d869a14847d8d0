package io.dagnats.leases.holder.internal.shards;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ShardNumbersTest {

    @Test
    void oneShardIsNamed() {
        assertEquals("shard 7", ShardNumbers.of(Set.of(7)));
    }

    @Test
    void fewShardsAreNamedInOrder() {
        assertEquals("shards 1, 4, 9", ShardNumbers.of(new TreeSet<>(Set.of(9, 1, 4))));
    }

    @Test
    void aThousandShardsAreCountedWithTheFirstOnesNamed() {
        Set<Integer> thousand = new TreeSet<>();
        IntStream.range(0, 1000).forEach(thousand::add);
        String line = ShardNumbers.of(thousand);
        assertEquals("1000 shards (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19 and 980 more)", line);
    }
}
