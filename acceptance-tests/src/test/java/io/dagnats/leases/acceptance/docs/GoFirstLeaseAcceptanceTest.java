package io.dagnats.leases.acceptance.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.ServiceFixture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Go first lease of docs/getting-started.md ("From Go") is a program a newcomer runs as it
 * stands, so it runs here: built with Debian's Go toolchain and Debian's nats.go package (GOPATH
 * mode on /usr/share/gocode, no module proxy, so nothing is downloaded) and run against a real
 * nats-server and dagnats. It must be granted, see its fence grow on the renew, and release, after
 * which the key is free.
 *
 * <p>The go binary is system property {@code go.bin}, which scripts/test.sh always sets
 * (scripts/go.sh installs the packages when missing); there the test runs or fails. Run outside
 * it, the test looks for {@code go} and nats.go on this machine and says why it skips without them.
 */
class GoFirstLeaseAcceptanceTest {

    static final Path REPOSITORY = JavaSnippetsCompileTest.REPOSITORY;
    static final Path GOPATH = Path.of("/usr/share/gocode");
    static final Path NATS_GO = GOPATH.resolve("src/github.com/nats-io/nats.go");
    static final Pattern GRANTED = Pattern.compile("^granted (\\S+) to (\\S+) at fence (\\d+)$", Pattern.MULTILINE);
    static final Pattern RENEWED = Pattern.compile("^renewed (\\S+): fence (\\d+)$", Pattern.MULTILINE);
    static final Pattern RELEASED = Pattern.compile("^released (\\S+)$", Pattern.MULTILINE);

    @Test
    void theGoFirstLeaseIsGrantedSeesItsFenceGrowOnRenewAndReleases(@TempDir Path work) throws Exception {
        Path go = goBinary();
        Path program = work.resolve("first-lease");
        String built = run(List.of(go.toString(), "build", "-o", program.toString(), "."),
                REPOSITORY.resolve("docs/examples/go/first-lease"), goEnvironment(work), 0);
        assertEquals("", built, "go build said something");

        try (ServiceFixture service = ServiceFixture.start()) {
            String output = run(List.of(program.toString(), "go-first"), work,
                    Map.of("NATS_URL", service.nats.url()), 0);

            Matcher granted = GRANTED.matcher(output);
            Matcher renewed = RENEWED.matcher(output);
            assertTrue(granted.find(), "no grant line: " + output);
            assertEquals("go-first", granted.group(1), output);
            assertTrue(renewed.find(), "no renew line: " + output);
            assertTrue(Long.parseLong(renewed.group(2)) > Long.parseLong(granted.group(3)),
                    "the renew's fence is not above the grant's: " + output);
            assertTrue(RELEASED.matcher(output).find(), "no release line: " + output);
            assertFalse(service.client.owner("go-first").path("held").asBoolean(true),
                    "the key is still held after the program released it");
        }
    }

    /** The go binary: {@code go.bin} when given (scripts/test.sh), else this machine's, else the test skips and says why. */
    private static Path goBinary() {
        String given = System.getProperty("go.bin", "");
        if (!given.isBlank() && !given.startsWith("${")) {
            assertTrue(Files.isExecutable(Path.of(given)), "go.bin=" + given + " is not an executable");
            assertTrue(Files.isDirectory(NATS_GO), "no nats.go under " + NATS_GO
                    + ": install Debian's golang-github-nats-io-go-nats-dev (scripts/go.sh does, as root)");
            return Path.of(given);
        }
        Path found = Path.of("/usr/bin/go");
        Assumptions.assumeTrue(Files.isExecutable(found) && Files.isDirectory(NATS_GO),
                "skipped: no Go toolchain with nats.go here (/usr/bin/go and " + NATS_GO + "); scripts/test.sh"
                        + " installs Debian's golang-go and golang-github-nats-io-go-nats-dev (scripts/go.sh, as root)"
                        + " and passes go.bin, or set GO_BIN");
        return found;
    }

    /** GOPATH mode on Debian's packaged sources, no module proxy: the build reads nothing from the network. */
    private static Map<String, String> goEnvironment(Path work) {
        Map<String, String> environment = new HashMap<>();
        environment.put("GOPATH", GOPATH.toString());
        environment.put("GO111MODULE", "off");
        environment.put("GOFLAGS", "");
        environment.put("GOPROXY", "off");
        environment.put("GOCACHE", work.resolve("go-cache").toString());
        environment.put("HOME", work.toString());
        return environment;
    }

    /** Runs {@code command} in {@code directory} and answers its output, asserting it exits with {@code exit} within two minutes. */
    private static String run(List<String> command, Path directory, Map<String, String> environment, int exit)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("go-first-lease-", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        boolean ended = process.waitFor(2, TimeUnit.MINUTES);
        if (!ended) {
            process.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        assertTrue(ended, String.join(" ", command) + " did not end: " + output);
        assertEquals(exit, process.exitValue(), String.join(" ", command) + " said: " + output);
        return output.strip();
    }
}
