package io.dagnats.leases.acceptance.harness;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.TreeMap;

/** A shard set's owners as dagnats lists them (keys {@code <set>-shard-<i>}), and how many each holds. */
public final class ShardOwners {

    private ShardOwners() {
    }

    /** Shard number to holder id, for every shard key of {@code set} dagnats lists as held now. */
    public static Map<Integer, String> listed(WireClient client, String set) {
        return listed(client, set, Integer.MAX_VALUE);
    }

    /**
     * As {@link #listed(WireClient, String)}, for shards 0 to {@code shards} - 1 only: other keys under
     * the prefix ({@code <set>-shard-03}, {@code <set>-shard-9} of a 4-shard set, plain leases named
     * so) are none of the set's shards.
     */
    public static Map<Integer, String> listed(WireClient client, String set, int shards) {
        Map<Integer, String> owners = new TreeMap<>();
        String prefix = set + "-shard-";
        for (JsonNode lease : client.call("list", "{\"prefix\":\"" + prefix + "\"}").path("leases")) {
            String number = lease.path("key").asText().substring(prefix.length());
            if (number.matches("0|[1-9][0-9]{0,8}") && Integer.parseInt(number) < shards) {
                owners.put(Integer.parseInt(number), lease.path("holder").asText());
            }
        }
        return owners;
    }

    /** Holder id to how many of {@code owners} it holds, in holder order. */
    public static Map<String, Integer> counts(Map<Integer, String> owners) {
        Map<String, Integer> counts = new TreeMap<>();
        owners.values().forEach(owner -> counts.merge(owner, 1, Integer::sum));
        return counts;
    }
}
