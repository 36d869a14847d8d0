package io.dagnats.leases.cli;

import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * The command {@code leases hold KEY -- command} runs while it owns the key: started per tenure
 * with the fence in an environment variable, stopped (SIGTERM to its process group, SIGKILL after
 * the grace) when the tenure ends.
 *
 * <p>It runs in a process group of its own ({@code setsid}), so a stop reaches everything the
 * command started, not just the shell. A {@code kill -9} of the CLI cannot be caught, so the
 * group carries its own watchdog: a shell reading the CLI's pipe, which the kernel closes when
 * the CLI dies, and which then kills the group. Without it a command would outlive its owner and
 * run beside the next one.
 */
final class HeldCommand {

    /**
     * {@code sh -c} script: runs {@code "$@"} (stdin from /dev/null), and a watchdog that kills
     * the whole group when the CLI's pipe (fd 3, a copy of stdin) closes; exits with the command's code.
     */
    private static final String WRAPPER = "exec 3<&0; \"$@\" </dev/null & c=$!; "
            + "(read -r _ <&3; kill -KILL 0) & w=$!; exec 3<&-; "
            + "wait $c; s=$?; kill $w 2>/dev/null; exit $s";

    private static final long POLL_MILLIS = 20;

    private final List<String> command;
    private final LeaseKey key;
    private final String fenceVariable;
    private final Duration grace;
    private Process running;

    HeldCommand(List<String> command, LeaseKey key, String fenceVariable, Duration grace) {
        this.command = List.copyOf(command);
        this.key = key;
        this.fenceVariable = fenceVariable;
        this.grace = grace;
    }

    boolean isRunning() {
        return running != null;
    }

    /** Starts the command for {@code tenure}, with its fence and key in the environment. */
    void start(Tenure tenure) {
        List<String> line = new ArrayList<>(List.of("setsid", "sh", "-c", WRAPPER, "dagnats-hold"));
        line.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(line).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put(fenceVariable, tenure.fence().toString());
        builder.environment().put("DAGNATS_LEASE_KEY", key.value());
        try {
            running = builder.start();
        } catch (IOException failed) {
            throw new CliFailure("cannot start " + String.join(" ", command) + ": " + failed.getMessage());
        }
    }

    /** The command's exit code, once it has exited on its own; empty while it runs or when none runs. */
    OptionalInt exited() {
        if (running == null || running.isAlive()) {
            return OptionalInt.empty();
        }
        int code = running.exitValue();
        stop();
        return OptionalInt.of(code);
    }

    /**
     * Stops the command's process group: SIGTERM, then SIGKILL to whatever of it is left after the
     * grace. Returns when the group is gone (or, were SIGKILL refused, after a further grace).
     */
    void stop() {
        if (running == null) {
            return;
        }
        long group = running.pid();
        signal("TERM", group);
        if (!gone(group, grace)) {
            signal("KILL", group);
            gone(group, grace);
        }
        try {
            running.getOutputStream().close();
        } catch (IOException ignored) {
            // the group is gone; its pipe with it
        }
        running = null;
    }

    private boolean gone(long group, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (alive(group)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            try {
                Thread.sleep(POLL_MILLIS); // nothing tells when the last process of a group ends
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Whether any process of the group is left ({@code kill -0 -- -GROUP}). */
    private static boolean alive(long group) {
        return run("kill", "-0", "--", "-" + group).orElse(1) == 0;
    }

    private static void signal(String name, long group) {
        run("kill", "-" + name, "--", "-" + group);
    }

    private static Optional<Integer> run(String... line) {
        try {
            Process kill = new ProcessBuilder(line).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return kill.waitFor(5, TimeUnit.SECONDS) ? Optional.of(kill.exitValue()) : Optional.empty();
        } catch (IOException failed) {
            return Optional.empty();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
