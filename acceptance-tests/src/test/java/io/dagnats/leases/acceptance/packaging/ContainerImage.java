package io.dagnats.leases.acceptance.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The image tarball the build writes (image/target/dagnats-image.tar, {@code docker load}'s
 * format): its config (entrypoint, user, environment, labels) as a container runtime reads it,
 * and its layers, which it can unpack in order into a root directory.
 */
final class ContainerImage {

    private final Path tarball;
    private final Path extracted;
    private final JsonNode manifest;
    private final JsonNode config;

    private ContainerImage(Path tarball, Path extracted, JsonNode manifest, JsonNode config) {
        this.tarball = tarball;
        this.extracted = extracted;
        this.manifest = manifest;
        this.config = config;
    }

    /** The tarball named by the system property {@code dagnats.image.tar}, read in {@code work}. */
    static ContainerImage open(Path work) throws IOException {
        String named = System.getProperty("dagnats.image.tar", "");
        Path tarball = Path.of(named);
        assertTrue(!named.isBlank() && Files.isRegularFile(tarball),
                "no image tarball at '" + named + "': build it with -Pimage (scripts/test.sh does)");
        Path extracted = Files.createDirectories(work.resolve("tarball"));
        run(List.of("tar", "-xf", tarball.toString(), "-C", extracted.toString()), Duration.ofMinutes(2));
        JsonNode manifests = WireClient.JSON.readTree(extracted.resolve("manifest.json").toFile());
        assertEquals(1, manifests.size(), "one image in the tarball: " + manifests);
        JsonNode manifest = manifests.get(0);
        JsonNode config = WireClient.JSON.readTree(extracted.resolve(manifest.path("Config").asText()).toFile());
        return new ContainerImage(tarball, extracted, manifest, config.path("config"));
    }

    Path tarball() {
        return tarball;
    }

    /** The name:tag it is loaded as. */
    String reference() {
        return manifest.path("RepoTags").path(0).asText();
    }

    List<String> entrypoint() {
        List<String> entrypoint = new ArrayList<>();
        config.path("Entrypoint").forEach(argument -> entrypoint.add(argument.asText()));
        return entrypoint;
    }

    /** The image's user as {@code uid:gid}, or what else it names. */
    String user() {
        return config.path("User").asText();
    }

    String workingDirectory() {
        return config.path("WorkingDir").asText("/");
    }

    Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        config.path("Env").forEach(entry -> {
            String[] pair = entry.asText().split("=", 2);
            environment.put(pair[0], pair.length > 1 ? pair[1] : "");
        });
        return environment;
    }

    Map<String, String> labels() {
        Map<String, String> labels = new LinkedHashMap<>();
        config.path("Labels").properties().forEach(label -> labels.put(label.getKey(), label.getValue().asText()));
        return labels;
    }

    /** Unpacks every layer, lowest first, into {@code root} (created), as a runtime lays out a container's root. */
    Path unpackInto(Path root) throws IOException {
        Files.createDirectories(root);
        for (JsonNode layer : manifest.path("Layers")) {
            // Jib writes no whiteouts (it builds from scratch, never deleting a lower file): plain extraction is exact.
            run(List.of("tar", "--warning=no-unknown-keyword", "-xzf", extracted.resolve(layer.asText()).toString(),
                    "-C", root.toString()), Duration.ofMinutes(2));
        }
        return root;
    }

    /** Runs {@code command} to its end (within {@code limit}) and answers its output; a non-zero exit throws. */
    static String run(List<String> command, Duration limit) throws IOException {
        return run(new ProcessBuilder(command), limit);
    }

    /** As {@link #run(List, Duration)}, with the builder's environment and directory. */
    static String run(ProcessBuilder builder, Duration limit) throws IOException {
        List<String> command = builder.command();
        Path output = Files.createTempFile("dagnats-image-command-", ".out");
        Process process = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish within " + limit);
            }
            String said = Files.readString(output);
            if (process.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " exited " + process.exitValue() + ": " + said.strip());
            }
            return said;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IOException(interrupted);
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
