package io.dagnats.leases.holder.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.holder.HolderHealth.Cause;
import io.dagnats.leases.holder.HolderHealth;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The stuck and recovered rule, as a table: a script of call outcomes at times on a
 * manual clock (threshold 2000 ms), the lines it logs, and the health it leaves.
 * Script words: {@code answer@t}, {@code dagnats@t} (unanswered while NATS is
 * connected), {@code nats@t} (unanswered while NATS is not), {@code ask@t} (the time
 * health is read at). Lines: {@code W:<cause>} for a stuck line, {@code I} for recovered.
 */
class ReachabilityTest {

    private static final Duration THRESHOLD = Duration.ofMillis(2000);
    private static final long ORIGIN = 1_000_000_000L;

    static Stream<Arguments> rules() {
        return Stream.of(
                row("no call yet is healthy", "ask@5000", "", "healthy"),
                row("answers are healthy and quiet", "answer@0 answer@3000 ask@6000", "", "healthy"),
                row("a run shorter than the threshold says nothing",
                        "dagnats@0 dagnats@1000 dagnats@2000 answer@2100 ask@2200", "", "healthy"),
                row("the threshold is exceeded, not reached", "dagnats@0 dagnats@2000 ask@2000", "", "healthy"),
                row("past the threshold, one stuck line naming dagnats",
                        "dagnats@0 dagnats@1000 dagnats@2001 dagnats@2500 dagnats@9000 ask@9000", "W:dagnats",
                        "DAGNATS_NOT_ANSWERING 9000"),
                row("the answer after it says recovered once",
                        "dagnats@0 dagnats@2500 answer@3000 answer@3300 ask@3300", "W:dagnats I", "healthy"),
                row("an error answer is an answer", "dagnats@0 dagnats@2500 answer@2600 ask@9000", "W:dagnats I",
                        "healthy"),
                row("NATS down, one stuck line naming NATS", "nats@0 nats@5000 nats@10000 ask@10000", "W:nats",
                        "NATS_DISCONNECTED 10000"),
                row("a cause that changes while stuck says so once more",
                        "nats@0 nats@2500 dagnats@3000 dagnats@3500 ask@4000", "W:nats W:dagnats",
                        "DAGNATS_NOT_ANSWERING 4000"),
                row("a cause that changes before the threshold names the latest",
                        "nats@0 dagnats@1000 dagnats@2100 ask@2100", "W:dagnats", "DAGNATS_NOT_ANSWERING 2100"),
                row("health turns by time alone, before the next outcome logs it",
                        "dagnats@0 ask@2500", "", "DAGNATS_NOT_ANSWERING 2500"),
                row("a new run after recovery starts over",
                        "dagnats@0 dagnats@2500 answer@3000 nats@4000 nats@5000 ask@5000", "W:dagnats I", "healthy"),
                row("and logs again once past the threshold",
                        "dagnats@0 dagnats@2500 answer@3000 nats@4000 nats@6500 ask@6500", "W:dagnats I W:nats",
                        "NATS_DISCONNECTED 2500"));
    }

    private static Arguments row(String rule, String script, String lines, String health) {
        return Arguments.of(rule, script, lines, health);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void stuckAndRecoveredLinesAndHealthFollowTheOutcomes(String rule, String script, String expectedLines,
            String expectedHealth) {
        Reachability state = Reachability.REACHABLE;
        List<String> lines = new ArrayList<>();
        HolderHealth health = null;
        for (String word : script.split(" ")) {
            String[] parts = word.split("@");
            long now = ORIGIN + Long.parseLong(parts[1]) * 1_000_000L;
            Reachability.Step step = switch (parts[0]) {
                case "answer" -> Reachability.answered(state, now);
                case "dagnats" -> Reachability.unanswered(state, Cause.DAGNATS_NOT_ANSWERING, "NoResponders", now,
                        THRESHOLD);
                case "nats" -> Reachability.unanswered(state, Cause.NATS_DISCONNECTED, "connection RECONNECTING",
                        now, THRESHOLD);
                case "ask" -> {
                    health = Reachability.health(state, now, THRESHOLD);
                    yield Reachability.Step.quietly(state);
                }
                default -> throw new IllegalArgumentException(word);
            };
            step.line().ifPresent(line -> lines.add(summary(line)));
            state = step.next();
        }
        assertEquals(expectedLines, String.join(" ", lines), rule);
        assertEquals(expectedHealth, summary(health), rule);
    }

    private static String summary(Reachability.Line line) {
        if (line.text().startsWith("cannot reach dagnats")) {
            assertEquals(Level.WARNING, line.level());
            return "W:dagnats";
        }
        if (line.text().startsWith("cannot reach NATS")) {
            assertEquals(Level.WARNING, line.level());
            return "W:nats";
        }
        assertTrue(line.text().startsWith("reaches dagnats again"), line.text());
        assertEquals(Level.INFO, line.level());
        return "I";
    }

    @Test
    void theStuckLineSaysForHowLongAndTheLastErrorAndTheRecoveredLineForHowLongInAll() {
        Reachability.Step first = Reachability.unanswered(Reachability.REACHABLE, Cause.DAGNATS_NOT_ANSWERING,
                "TimeoutException", ORIGIN, THRESHOLD);
        Reachability.Step stuck = Reachability.unanswered(first.next(), Cause.DAGNATS_NOT_ANSWERING,
                "CancellationException: No Responders", ORIGIN + 2_345_000_000L, THRESHOLD);
        Reachability.Step recovered = Reachability.answered(stuck.next(), ORIGIN + 3_000_000_000L);

        assertEquals("cannot reach dagnats: NATS is connected but calls have gone unanswered for 2345 ms"
                + " (CancellationException: No Responders); no lease can be acquired or renewed until dagnats answers",
                stuck.line().orElseThrow().text());
        assertEquals("reaches dagnats again after 3000 ms unanswered", recovered.line().orElseThrow().text());
        assertEquals(new HolderHealth.Unhealthy(Cause.DAGNATS_NOT_ANSWERING, Duration.ofMillis(2500),
                "CancellationException: No Responders"), Reachability.health(stuck.next(), ORIGIN + 2_500_000_000L,
                THRESHOLD));
    }

    private static String summary(HolderHealth health) {
        if (health instanceof HolderHealth.Unhealthy unhealthy) {
            return unhealthy.cause() + " " + unhealthy.unansweredFor().toMillis();
        }
        assertInstanceOf(HolderHealth.Healthy.class, health);
        return "healthy";
    }
}
