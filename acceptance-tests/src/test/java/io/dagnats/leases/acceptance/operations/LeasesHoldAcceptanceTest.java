package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code dagnats leases hold KEY -- command}: of two holders one runs the command; kill -9 the
 * owner and the other runs it within the TTL, under a higher fence, while the dead owner's command
 * dies with it; a revoke stops the command; the fences the commands get only grow.
 */
class LeasesHoldAcceptanceTest extends OperatorCliService {

    private static final Duration TTL = Duration.ofSeconds(3);
    private static final Duration LIMIT = Duration.ofSeconds(20);

    @Test
    void oneOfTwoHoldersRunsTheCommandAndTheOtherTakesOverWithAHigherFenceWhenTheOwnerDies() throws Exception {
        Path runs = Files.createTempFile("dagnats-hold-", ".runs");
        // Each run of the command writes "<fence> <pid>" and sleeps as the process it wrote.
        String job = "echo \"$DAGNATS_FENCE $$ $DAGNATS_LEASE_KEY\" >> " + runs + "; exec sleep 1000";
        try (CliProcess first = hold("hold-job", "first", job);
                CliProcess second = hold("hold-job", "second", job)) {
            first.awaitErr(LIMIT, "the first to hold", err -> err.contains("holding hold-job as first"));
            second.awaitErr(LIMIT, "the second to hold", err -> err.contains("holding hold-job as second"));
            List<Run> started = awaitRuns(runs, 1);
            assertEquals("hold-job", started.get(0).key());
            String owner = client.owner("hold-job").path("holder").asText();
            CliProcess owning = owner.equals("first") ? first : second;
            CliProcess waiting = owning == first ? second : first;
            owning.awaitOut(LIMIT, "the owner's line", out -> out.contains("owner since fence " + started.get(0).fence()));
            assertFalse(waiting.out().contains("owner since"), waiting.out());
            assertEquals(1, runs(runs).size(), "both ran the command: " + runs(runs));

            long killed = System.nanoTime();
            owning.kill();
            // The dead owner's command dies with it (its watchdog), not at the TTL.
            awaitGone(started.get(0).pid(), "the dead owner's command");
            List<Run> taken = awaitRuns(runs, 2);
            long tookMillis = (System.nanoTime() - killed) / 1_000_000;
            assertTrue(tookMillis < TTL.plusSeconds(2).toMillis(), "took over after " + tookMillis + " ms");
            waiting.awaitOut(LIMIT, "the new owner's line", out -> out.contains("owner since fence " + taken.get(1).fence()));

            client.revoke("hold-job", "acceptance test");
            awaitGone(taken.get(1).pid(), "the revoked owner's command");
            waiting.awaitOut(LIMIT, "the revoked owner's line", out -> out.contains("not owner: revoked") || out.contains("not owner: lost"));
            // Nobody else wants it: after stepping back it owns the key again and runs the command anew.
            List<Run> again = awaitRuns(runs, 3);
            assertTrue(again.get(0).fence() < again.get(1).fence() && again.get(1).fence() < again.get(2).fence(),
                    "fences did not grow: " + again);

            waiting.signal("TERM");
            CliProcess.Result stopped = waiting.awaitExit(LIMIT);
            assertEquals(0, stopped.exitCode(), stopped.toString());
            assertFalse(stopped.err().contains("Exception") || stopped.err().contains("\tat "), stopped.toString());
            awaitGone(again.get(2).pid(), "the command of a holder stopped with SIGTERM");
            assertFalse(client.owner("hold-job").path("held").asBoolean(), "SIGTERM released nothing");
        } finally {
            runs(runs).forEach(run -> ProcessHandle.of(run.pid()).ifPresent(ProcessHandle::destroyForcibly));
            Files.deleteIfExists(runs);
        }
    }

    @Test
    void aCommandThatExitsReleasesTheLeaseAndItsExitCodeIsTheHoldersOwn() throws Exception {
        try (CliProcess once = hold("hold-once", "once", "test \"$DAGNATS_LEASE_KEY\" = hold-once && exit 7")) {
            CliProcess.Result exited = once.awaitExit(LIMIT);
            assertEquals(7, exited.exitCode(), exited.toString());
            assertTrue(exited.out().contains("owner since fence "), exited.toString());
            assertFalse(client.owner("hold-once").path("held").asBoolean(), "the lease was not released");
        }
    }

    private static CliProcess hold(String key, String holder, String script) {
        return CliProcess.start(service.nats.url(), "leases", "hold", key, "--holder", holder, "--ttl", "3s",
                "--grace", "2s", "--", "sh", "-c", script);
    }

    /** One run of the command, as it wrote itself down. */
    private record Run(long fence, long pid, String key) {
    }

    private static List<Run> awaitRuns(Path file, int count) {
        return Polling.until(LIMIT, count + " runs of the command", () -> runs(file), runs -> runs.size() >= count);
    }

    private static List<Run> runs(Path file) {
        try {
            return Files.readAllLines(file).stream().filter(line -> line.split(" ").length == 3).map(line -> {
                String[] parts = line.split(" ");
                return new Run(Long.parseLong(parts[0]), Long.parseLong(parts[1]), parts[2]);
            }).toList();
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    private static void awaitGone(long pid, String what) {
        Polling.until(LIMIT, what + " (pid " + pid + ") to end",
                () -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), alive -> !alive);
    }
}
