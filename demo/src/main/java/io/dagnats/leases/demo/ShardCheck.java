package io.dagnats.leases.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's last line: reads every replica's {@link ShardLog} in a directory,
 * builds each replica's windows of belief per shard (a window without an end,
 * a killed replica's, lasts to its last known deadline), and says whether two
 * replicas' windows on one shard ever overlapped. Exit code 1 if they did.
 */
final class ShardCheck {

    private record Window(String holder, long from, long to) {
    }

    private ShardCheck() {
    }

    static int check(Path directory) throws IOException {
        Map<String, List<Window>> byShard = new HashMap<>();
        int handovers = 0;
        try (var files = Files.list(directory)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".log")).toList()) {
                windows(Files.readAllLines(file), byShard);
            }
        }
        int windows = 0;
        for (Map.Entry<String, List<Window>> shard : byShard.entrySet()) {
            List<Window> ofShard = shard.getValue();
            ofShard.sort((one, other) -> Long.compare(one.from(), other.from()));
            windows += ofShard.size();
            for (int i = 0; i < ofShard.size(); i++) {
                for (int j = 0; j < i; j++) {
                    Window earlier = ofShard.get(j);
                    Window later = ofShard.get(i);
                    if (!earlier.holder().equals(later.holder()) && later.from() < earlier.to()) {
                        System.out.println("check: FAILED, shard " + shard.getKey() + " was owned by "
                                + earlier.holder() + " and " + later.holder() + " at once for "
                                + (earlier.to() - later.from()) / 1_000_000 + " ms");
                        return 1;
                    }
                }
                if (i > 0 && !ofShard.get(i - 1).holder().equals(ofShard.get(i).holder())) {
                    handovers++;
                }
            }
        }
        System.out.println("check: " + windows + " ownership windows of " + byShard.size() + " shards, " + handovers
                + " handovers, no shard ever owned by two replicas at once (from the replicas' own logs)");
        return 0;
    }

    /** One replica's lines, in the order written. */
    private static void windows(List<String> lines, Map<String, List<Window>> byShard) {
        Map<String, long[]> open = new HashMap<>(); // shard -> {from, deadline}
        String holder = null;
        for (String line : lines) {
            String[] fields = line.trim().split(" ");
            if (fields.length < 4) {
                continue;
            }
            holder = fields[2];
            long at = Long.parseLong(fields[0]);
            String shard = fields[1];
            if (fields[3].equals("own")) {
                long deadline = Long.parseLong(fields[5]);
                long[] window = open.get(shard);
                if (window == null) {
                    open.put(shard, new long[] {at, deadline});
                } else {
                    window[1] = Math.max(window[1], deadline);
                }
            } else {
                long[] window = open.remove(shard);
                if (window != null) {
                    byShard.computeIfAbsent(shard, ignored -> new ArrayList<>())
                            .add(new Window(holder, window[0], Math.min(at, window[1])));
                }
            }
        }
        for (Map.Entry<String, long[]> left : open.entrySet()) {
            byShard.computeIfAbsent(left.getKey(), ignored -> new ArrayList<>())
                    .add(new Window(holder, left.getValue()[0], left.getValue()[1]));
        }
    }
}
