package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.Reliability;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.nats.client.JetStreamManagement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/**
 * {@code dagnats leases watch} reads the bucket's stream, so it can begin at a revision
 * ({@code --since REV}) and go on after a nats-server restart from the last revision it printed:
 * no line twice, none skipped that the stream still holds, checked against the stream itself.
 */
class WatchResumeAcceptanceTest extends WatchReading {

    @Test
    void sincePrintsExactlyTheChangesTheBucketStillHoldsFromRevThenFollows() throws Exception {
        long a1 = revision(client.acquire("since-a", "holder-a", 60_000));
        long a2 = revision(client.renew("since-a", "holder-a", a1));
        long b1 = revision(client.acquire("since-b", "holder-b", 60_000));
        long b2 = revision(client.release("since-b", "holder-b", b1));
        long c1 = revision(client.acquire("since-c", "holder-c", 60_000));
        long c2 = revision(client.renew("since-c", "holder-c", c1));
        long a3 = revision(client.renew("since-a", "holder-a", a2));
        // History 1: each key's last change is held. From a2 on that is b2, c2 and a3.
        assertEquals(List.of(b2, c2, a3), held(service.client, a2, a3), "the stream's own record");

        try (CliProcess json = CliProcess.start(service.nats.url(), "leases", "watch", "--prefix", "since-",
                "--since", Long.toString(a2), "-o", "json");
                CliProcess text = CliProcess.start(service.nats.url(), "leases", "watch", "--prefix", "since-",
                        "--since", Long.toString(a2))) {
            json.awaitOut(LIMIT, "the three held changes", out -> out.lines().count() == 3);
            long d1 = revision(client.acquire("since-d", "holder-d", 60_000));
            String printed = json.awaitOut(LIMIT, "the change made after", out -> out.lines().count() == 4);

            assertEquals(List.of(b2, c2, a3, d1), sequences(printed), printed);
            assertEquals("released", event(printed, b2).path("event").asText());
            assertEquals(b1, event(printed, b2).path("revision").asLong(), "a release names the lease it ended");
            List<String> notices = notices(json.err());
            assertEquals(List.of("dagnats: the bucket no longer holds revisions " + a2 + " to " + b1
                    + "; the first revision it holds from there is " + b2
                    + " (a key's later change replaces its earlier one; expired and purged ones are gone)",
                    "dagnats: caught up at revision " + a3 + ": 1 revision from " + c1
                    + " on is no longer in the bucket (a key's later change replaces its earlier one; expired and"
                    + " purged ones are gone)"), notices, json.err());

            String lines = text.awaitOut(LIMIT, "the text lines", out -> out.lines().count() == 4);
            assertTrue(lines.lines().anyMatch(line -> line.endsWith("released  since-b  by holder-b  revision " + b1
                    + "  seq " + b2)), "a line that ended a lease gives its own revision as seq: " + lines);
        }
    }

    @Test
    void aNatsServerRestartMidStreamResumesWithoutARepeatOrASkipOfWhatTheStreamHolds() throws Exception {
        try (ServiceFixture own = ServiceFixture.start();
                CliProcess watch = CliProcess.start(own.nats.url(), "leases", "watch", "-o", "json")) {
            String begun = watch.awaitErr(LIMIT, "the watch to begin", err -> START.matcher(err).find());
            Matcher startMatch = START.matcher(begun);
            assertTrue(startMatch.find());
            long start = Long.parseLong(startMatch.group(1));

            Workload workload = new Workload(own.client);
            Thread writer = new Thread(workload, "acquire-renew-release");
            writer.start();
            try {
                workload.awaitAcknowledged(30);
                own.nats.stop();
                own.nats.startAgain();
                int atRestart = workload.acknowledged.size();
                workload.awaitAcknowledged(atRestart + 30);
            } finally {
                workload.stop.set(true);
                writer.join(30_000);
            }
            JetStreamManagement stream = own.client.connection().jetStreamManagement();
            long last = stream.getStreamInfo(STREAM).getStreamState().getLastSequence();
            String printed = watch.awaitOut(LIMIT, "the stream's last revision " + last,
                    out -> sequences(out).contains(last));
            String err = watch.err();

            List<Long> sequences = sequences(printed);
            for (int i = 1; i < sequences.size(); i++) {
                assertTrue(sequences.get(i) > sequences.get(i - 1),
                        "revisions go up, none twice: " + sequences.get(i - 1) + " then " + sequences.get(i));
            }
            Set<Long> seen = new TreeSet<>(sequences);
            List<Long> skippedButHeld = new ArrayList<>();
            long notPrinted = 0;
            for (long revision = start; revision <= last; revision++) {
                if (!seen.contains(revision)) {
                    notPrinted++;
                    if (isHeld(stream, revision)) {
                        skippedButHeld.add(revision);
                    }
                }
            }
            assertEquals(List.of(), skippedButHeld, "revisions the stream still holds, not printed; stderr:\n" + err);
            assertTrue(workload.acknowledged.stream().allMatch(revision -> revision >= start && revision <= last));
            assertEquals(notPrinted, reportedNotHeld(err), "what was not printed is what stderr said: " + err);
            assertEquals(1, err.lines().filter(line -> line.contains("NATS connection lost")).count(), err);
            assertEquals(1, err.lines().filter(line -> line.contains("NATS connection back")).count(), err);
            Reliability.report("leases watch across a nats-server restart",
                    sequences.size() + " revisions printed, " + notPrinted + " no longer held when read, of "
                            + (last - start + 1) + "; " + workload.acknowledged.size() + " writes acknowledged");
        }
    }

    /** Acquires, renews and releases over a few keys until stopped, keeping every revision a reply named. */
    private static final class Workload implements Runnable {
        final List<Long> acknowledged = new CopyOnWriteArrayList<>();
        final AtomicBoolean stop = new AtomicBoolean();
        private final WireClient client;
        private final Map<String, Long> held = new HashMap<>();

        Workload(WireClient client) {
            this.client = client;
        }

        @Override
        public void run() {
            for (int step = 0; step < 20_000 && !stop.get(); step++) {
                String key = "restart-" + step % 4;
                Long fence = held.get(key);
                try {
                    JsonNode reply = fence == null ? client.acquire(key, "writer", 60_000)
                            : step % 3 == 0 ? client.release(key, "writer", fence)
                            : client.renew(key, "writer", fence);
                    if (reply.has("revision") && !reply.path("kind").isTextual()) {
                        acknowledged.add(reply.path("revision").asLong());
                        if (reply.path("released").asBoolean(false)) {
                            held.remove(key);
                        } else {
                            held.put(key, reply.path("revision").asLong());
                        }
                    } else {
                        held.remove(key);
                    }
                } catch (CompletionException | CancellationException outage) {
                    // nats-server restarting: no answer; the key is acquired again once it answers
                    held.remove(key);
                }
                Polling.pause();
            }
        }

        void awaitAcknowledged(int count) {
            Polling.until(LIMIT, count + " acknowledged writes", acknowledged::size, size -> size >= count);
        }
    }
}
