package io.dagnats.leases.acceptance.packaging;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.packaging.ContainerRuntimes.Way;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Assumptions;

/**
 * The image started the way this machine can. First in a container: podman or docker, when its
 * {@code info} answers and a run of the image gets as far as serving; podman with its defaults,
 * then with runc and this process's own limits (on these machines podman's crun stops at
 * "setrlimit: Operation not permitted", then at cgroups in hybrid mode; runc with limits it need
 * not raise runs). Where no way works (docker has no daemon here), the entrypoint's command outside
 * a container: the layers unpacked into a root directory, and unshare(1) giving the command what a
 * runtime would, its own PID namespace (it is PID 1, as in a container) and mount namespace with
 * /proc, the root, the working directory, the user and group and the environment the image's
 * config names, and nothing else. That needs root; without it the test says why on one line and
 * skips. {@link #how()} is the line that says which ran, and why not the ways before it.
 * {@code -Ddagnats.image.runtimes=} runs the outside way where a runtime would run it.
 */
final class ImageLaunch implements AutoCloseable {

    /** Where {@link #start(ContainerImage, Map, Optional, Path, String)} puts files for the image to read. */
    static final String FILES = "/run/dagnats";

    private final String how;
    /** The command that runs the image the way this one was, with arguments after the entrypoint. */
    private final Function<List<String>, ProcessBuilder> command;
    private final Process process;
    private final Path work;
    /** The commands that remove the container and its image when the test is done; empty outside a container. */
    private final Optional<List<List<String>>> cleanup;

    private ImageLaunch(String how, Function<List<String>, ProcessBuilder> command, Process process, Path work,
            Optional<List<List<String>>> cleanup) {
        this.how = how;
        this.command = command;
        this.process = process;
        this.work = work;
        this.cleanup = cleanup;
    }

    /**
     * Starts {@code image} with its own environment plus {@code settings} and waits until its
     * output holds {@code serving}.
     */
    static ImageLaunch start(ContainerImage image, Map<String, String> settings, Path work, String serving)
            throws IOException {
        return start(image, settings, Optional.empty(), work, serving);
    }

    /** As {@link #start(ContainerImage, Map, Path, String)}, with the files of {@code files} in {@link #FILES}. */
    static ImageLaunch start(ContainerImage image, Map<String, String> settings, Optional<Path> files, Path work,
            String serving) throws IOException {
        Path launch = Files.createTempDirectory(work, "launch-");
        Optional<Path> readable = files.isPresent() ? Optional.of(ImageFiles.readableCopy(files.get(), launch)) : Optional.empty();
        List<String> notRun = new ArrayList<>();
        for (String runtime : ContainerRuntimes.runtimes()) {
            Optional<Path> binary = ContainerRuntimes.onPath(runtime);
            if (binary.isEmpty()) {
                notRun.add(runtime + " is not installed");
                continue;
            }
            try {
                ContainerImage.run(List.of(binary.get().toString(), "info"), Duration.ofSeconds(20));
            } catch (IOException cannot) {
                notRun.add(runtime + ": " + lastLine(cannot.getMessage()));
                continue;
            }
            for (Way way : ContainerRuntimes.ways(runtime)) {
                String tried = String.join(" ", way.command(runtime, List.of(image.reference())));
                try {
                    // Loaded for each way: a way that fails removes what it loaded, as every launch does.
                    ContainerImage.run(List.of(binary.get().toString(), "load", "-i", image.tarball().toString()),
                            Duration.ofMinutes(2));
                    String before = notRun.isEmpty() ? "" : " (not: " + String.join("; ", notRun) + ")";
                    return inContainer(binary.get(), way, tried + before, image, settings, readable, launch, serving);
                } catch (IOException cannot) {
                    notRun.add(tried + ": " + lastLine(cannot.getMessage()));
                }
            }
        }
        if (notRun.isEmpty()) {
            notRun.add("dagnats.image.runtimes names none");
        }
        return outsideContainer(image, settings, readable, launch, serving, String.join("; ", notRun));
    }

    private static ImageLaunch inContainer(Path runtime, Way way, String how, ContainerImage image,
            Map<String, String> settings, Optional<Path> files, Path work, String serving) throws IOException {
        String name = "dagnats-image-test-" + UUID.randomUUID();
        // `run` passes SIGTERM on to the container and exits with the container's status.
        Function<List<String>, ProcessBuilder> command = arguments -> {
            List<String> options = new ArrayList<>(List.of("--rm", "--network", "host"));
            if (arguments.isEmpty()) {
                options.addAll(List.of("--name", name));
            }
            settings.forEach((setting, value) -> options.addAll(List.of("--env", setting + "=" + value)));
            files.ifPresent(directory -> options.addAll(List.of("--volume", directory + ":" + FILES + ":ro")));
            options.add(image.reference());
            options.addAll(arguments);
            return new ProcessBuilder(way.command(runtime.toString(), options));
        };
        // Removing the container, then the image this launch loaded: the test leaves neither behind.
        return launch("in a container: " + how, command, work, serving, Optional.of(List.of(
                List.of(runtime.toString(), "rm", "--force", name),
                List.of(runtime.toString(), "rmi", image.reference()))));
    }

    private static ImageLaunch outsideContainer(ContainerImage image, Map<String, String> settings,
            Optional<Path> files, Path work, String serving, String whyNotInContainer) throws IOException {
        Optional<Path> unshare = ContainerRuntimes.onPath("unshare");
        int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        if (uid != 0 || unshare.isEmpty()) {
            String why = "image test skipped: no container runtime runs it (" + whyNotInContainer + "), and running"
                    + " it outside one takes root and unshare (uid " + uid + ", unshare "
                    + unshare.map(Path::toString).orElse("missing") + ")";
            System.out.println(why);
            Assumptions.abort(why);
        }
        String[] user = image.user().split(":");
        assertTrue(user.length == 2 && user[0].matches("\\d+") && user[1].matches("\\d+"),
                "the image's user is not a numeric uid:gid: " + image.user());
        Path root = image.unpackInto(work.resolve("root"));
        // The mount points and devices every runtime gives a container (it has no /dev of its own).
        Files.createDirectories(root.resolve("proc"));
        Path dev = Files.createDirectories(root.resolve("dev"));
        for (String[] device : new String[][] {{"null", "3"}, {"zero", "5"}, {"full", "7"}, {"random", "8"},
                {"urandom", "9"}}) {
            ContainerImage.run(List.of("mknod", "-m", "666", dev.resolve(device[0]).toString(), "c", "1", device[1]),
                    Duration.ofSeconds(10));
        }
        if (files.isPresent()) {
            ImageFiles.copy(files.get(), Files.createDirectories(root.resolve(FILES.substring(1))));
        }
        Function<List<String>, ProcessBuilder> command = arguments -> {
            List<String> run = new ArrayList<>(List.of(unshare.get().toString(), "--pid", "--fork", "--kill-child",
                    "--mount-proc", "--root=" + root, "--wd=" + image.workingDirectory(),
                    "--setgid", user[1], "--setuid", user[0], "--"));
            run.addAll(image.entrypoint());
            run.addAll(arguments);
            ProcessBuilder builder = new ProcessBuilder(run);
            builder.environment().clear();
            builder.environment().putAll(image.environment());
            builder.environment().putAll(settings);
            return builder;
        };
        return launch("outside a container (" + whyNotInContainer + "): the entrypoint in the unpacked layers,"
                + " under unshare as PID 1 of its own namespaces, as " + image.user() + " in "
                + image.workingDirectory(), command, work, serving, Optional.empty());
    }

    private static ImageLaunch launch(String how, Function<List<String>, ProcessBuilder> command, Path work,
            String serving, Optional<List<List<String>>> cleanup) throws IOException {
        Process process = command.apply(List.of()).redirectErrorStream(true)
                .redirectOutput(work.resolve("image.log").toFile()).start();
        ImageLaunch launch = new ImageLaunch(how, command, process, work, cleanup);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!launch.log().contains(serving) && process.isAlive() && System.nanoTime() < deadline) {
            Polling.pause();
        }
        if (!launch.log().contains(serving)) {
            String outcome = process.isAlive() ? "did not serve within 60 s" : "exited " + process.exitValue();
            launch.close();
            throw new IOException(outcome + " before serving: " + launch.log().strip());
        }
        return launch;
    }

    /** Which way ran, and why not the ways before it. */
    String how() {
        return how;
    }

    String log() {
        try {
            return Files.readString(work.resolve("image.log"));
        } catch (IOException notYet) {
            return "";
        }
    }

    /** Runs the image once more the same way, with {@code arguments} (the operator CLI), to its end; its output. */
    String run(String... arguments) throws IOException {
        return ContainerImage.run(command.apply(List.of(arguments)), Duration.ofSeconds(60));
    }

    /** The service's own process where this machine sees it: outside a container, unshare's one child. */
    Optional<ProcessHandle> service() {
        return cleanup.isEmpty() ? process.children().findFirst() : Optional.empty();
    }

    /** SIGTERM, as a runtime's stop sends it, to the service; answers its exit status. */
    int terminate(Duration limit) throws InterruptedException {
        service().ifPresentOrElse(ProcessHandle::destroy, process::destroy);
        assertTrue(process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS),
                "the image did not exit within " + limit + " of SIGTERM: " + log());
        return process.exitValue();
    }

    @Override
    public void close() throws IOException {
        process.destroyForcibly(); // unshare --kill-child takes the service with it
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        for (List<String> removal : cleanup.orElse(List.of())) {
            try {
                ContainerImage.run(removal, Duration.ofSeconds(30));
            } catch (IOException alreadyGone) {
                // --rm removed the container when it exited; another launch may have removed the image
            }
        }
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return lines[lines.length - 1].strip();
    }
}
