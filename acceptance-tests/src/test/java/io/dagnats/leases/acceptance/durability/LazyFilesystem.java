package io.dagnats.leases.acceptance.durability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * scripts/lazyfs.py mounted over one directory: file data written through the
 * mount stays in the daemon's memory until it is fsynced (or, with a writeback
 * delay, until it has been dirty that long). {@link #cutPower()} kills the
 * daemon with SIGKILL and detaches the mount, so what was not synced is gone,
 * as in a power cut; {@link #mount()} "boots" on the same backing directory.
 */
final class LazyFilesystem implements AutoCloseable {

    private final Path backing;
    private final Path mountpoint;
    private final double writebackSeconds;
    private final Path log;
    private Process daemon;

    private LazyFilesystem(Path backing, Path mountpoint, double writebackSeconds, Path log) {
        this.backing = backing;
        this.mountpoint = mountpoint;
        this.writebackSeconds = writebackSeconds;
        this.log = log;
    }

    /** The command that runs lazyfs.py ({@code scripts/fuse.sh} prints it), or empty when it was not found. */
    static List<String> command() {
        String command = System.getProperty("lazyfs.command", "");
        if (command.isBlank() || command.startsWith("${")) {
            return List.of();
        }
        return Arrays.asList(command.trim().split(" "));
    }

    /**
     * Why a lazy filesystem cannot be mounted here, found by mounting one in a
     * scratch directory; empty when it can.
     */
    static Optional<String> refusal() {
        if (command().isEmpty()) {
            return Optional.of("no lazy filesystem: scripts/fuse.sh found no fusepy and fusermount and could not "
                    + "install them (run scripts/test.sh as root with apt-get, or install fuse3 libfuse2 python3-fusepy)");
        }
        if (!Files.exists(Path.of("/dev/fuse"))) {
            return Optional.of("the kernel offers no /dev/fuse here, so no lazy filesystem can be mounted");
        }
        Path scratch = null;
        try {
            scratch = Files.createTempDirectory("dagnats-lazyfs-probe-");
            try (LazyFilesystem probe = at(Files.createDirectories(scratch.resolve("backing")),
                    Files.createDirectories(scratch.resolve("mount")), 0)) {
                probe.mount();
                Files.writeString(probe.mountpoint.resolve("probe"), "written");
                return Optional.empty();
            }
        } catch (IOException | RuntimeException refused) {
            return Optional.of("the lazy filesystem could not be mounted (" + refused.getMessage().lines().findFirst()
                    .orElse("") + ")");
        } finally {
            if (scratch != null) {
                PowerLossRig.removeTree(scratch);
            }
        }
    }

    static LazyFilesystem at(Path backing, Path mountpoint, double writebackSeconds) {
        return new LazyFilesystem(backing, mountpoint, writebackSeconds,
                mountpoint.resolveSibling(mountpoint.getFileName() + "-lazyfs.log"));
    }

    Path mountpoint() {
        return mountpoint;
    }

    void mount() {
        List<String> command = new ArrayList<>(command());
        command.addAll(List.of(backing.toString(), mountpoint.toString(),
                "--writeback-seconds", Double.toString(writebackSeconds)));
        try {
            daemon = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!mounted()) {
                if (!daemon.isAlive() || System.nanoTime() > deadline) {
                    String why = Files.exists(log) ? Files.readString(log) : "";
                    cutPower();
                    throw new IllegalStateException("lazyfs did not mount " + mountpoint + ": " + why.strip());
                }
                Thread.sleep(20);
            }
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    private boolean mounted() throws IOException {
        String entry = " " + mountpoint.toRealPath() + " ";
        return Files.readAllLines(Path.of("/proc/self/mounts")).stream()
                .anyMatch(line -> line.contains(entry) && line.contains("fuse"));
    }

    /** SIGKILL the daemon and detach the mount: every write not yet synced is lost. */
    void cutPower() {
        if (daemon != null) {
            daemon.destroyForcibly();
            try {
                daemon.waitFor(10, TimeUnit.SECONDS);
                new ProcessBuilder("fusermount", "-u", "-z", mountpoint.toString()).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(10, TimeUnit.SECONDS);
            } catch (IOException failed) {
                throw new UncheckedIOException(failed);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            daemon = null;
        }
    }

    @Override
    public void close() {
        cutPower();
    }
}
