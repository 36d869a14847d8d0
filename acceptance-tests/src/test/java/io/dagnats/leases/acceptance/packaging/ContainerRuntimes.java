package io.dagnats.leases.acceptance.packaging;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which container runtimes {@link ImageLaunch} tries, and the ways it tries each: kept apart
 * from the launch, since they name what this machine has, not what the image does.
 */
final class ContainerRuntimes {

    private ContainerRuntimes() {
    }

    /**
     * The container runtimes to try, in order: the system property {@code dagnats.image.runtimes}
     * (comma-separated; empty runs the image outside a container), podman and docker unless set.
     */
    static List<String> runtimes() {
        String named = System.getProperty("dagnats.image.runtimes", "podman,docker").strip();
        return named.isEmpty() ? List.of() : List.of(named.split("\\s*,\\s*"));
    }

    /** A way to run a container: the runtime's options before {@code run}, and {@code run}'s own. */
    record Way(List<String> runtime, List<String> run) {

        List<String> command(String binary, List<String> rest) {
            List<String> command = new ArrayList<>(List.of(binary));
            command.addAll(runtime);
            command.add("run");
            command.addAll(run);
            command.addAll(rest);
            return command;
        }
    }

    /**
     * The ways to try a runtime: its own defaults, and for podman where those fail (on these
     * machines its crun stops at setrlimit, then at cgroups in hybrid mode) runc, with the limits
     * this process has rather than podman's higher defaults, which the sandbox refuses to raise to.
     */
    static List<Way> ways(String runtime) throws IOException {
        List<Way> ways = new ArrayList<>(List.of(new Way(List.of(), List.of())));
        Optional<Path> runc = onPath("runc");
        if (runtime.equals("podman") && runc.isPresent()) {
            long files = hardLimit("Max open files");
            long processes = Math.min(4096, hardLimit("Max processes"));
            ways.add(new Way(List.of("--runtime", runc.get().toString()), List.of(
                    "--ulimit", "nofile=" + files + ":" + files, "--ulimit", "nproc=" + processes + ":" + processes)));
        }
        return ways;
    }

    /** This process's hard limit named {@code limit} in /proc/self/limits. */
    private static long hardLimit(String limit) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
            if (line.startsWith(limit)) {
                String hard = line.substring(limit.length()).trim().split("\\s+")[1];
                return hard.equals("unlimited") ? 1_048_576 : Long.parseLong(hard);
            }
        }
        throw new IOException("/proc/self/limits names no " + limit);
    }

    /** {@code program} where the {@code PATH} finds it executable. */
    static Optional<Path> onPath(String program) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(directory, program);
            if (!directory.isEmpty() && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
