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
        Map<Integer, String> owners = new TreeMap<>();
        String prefix = set + "-shard-";
        for (JsonNode lease : client.call("list", "{\"prefix\":\"" + prefix + "\"}").path("leases")) {
            owners.put(Integer.parseInt(lease.path("key").asText().substring(prefix.length())),
                    lease.path("holder").asText());
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
