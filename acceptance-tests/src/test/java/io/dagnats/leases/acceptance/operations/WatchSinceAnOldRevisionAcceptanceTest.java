package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.CliProcess;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code dagnats leases watch --since REV} with a revision older than the bucket holds says so
 * on one line, naming the first revision it holds.
 */
class WatchSinceAnOldRevisionAcceptanceTest extends WatchReading {

    @Test
    void aRevisionOlderThanTheBucketHoldsIsSaidOnOneLineNamingTheFirstItHolds() throws Exception {
        revision(client.acquire("older-a", "holder-o", 60_000));
        revision(client.acquire("older-b", "holder-o", 60_000));
        long first = service.client.connection().jetStreamManagement().getStreamInfo(STREAM)
                .getStreamState().getFirstSequence();

        try (CliProcess watch = CliProcess.start(service.nats.url(), "leases", "watch", "older-a", "--since", "1")) {
            String printed = watch.awaitOut(LIMIT, "older-a's acquire", out -> out.contains("acquired  older-a"));
            String err = watch.awaitErr(LIMIT, "the notice", text -> text.contains("no longer holds"));

            List<String> notices = notices(err);
            assertEquals("dagnats: the bucket no longer holds revisions 1 to " + (first - 1)
                    + "; the first revision it holds from there is " + first
                    + " (a key's later change replaces its earlier one; expired and purged ones are gone)",
                    notices.get(0), err);
            assertEquals(1, notices.stream().filter(line -> line.contains("no longer holds")).count(), err);
            assertTrue(printed.lines().allMatch(line -> line.contains("  older-a  ")),
                    "a watch of one key prints that key only, though the stream holds them all: " + printed);
        }
    }
}
