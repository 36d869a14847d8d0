package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.FatJar;
import io.dagnats.leases.bootstrap.KnownSettings;
import io.dagnats.leases.cli.ServiceLauncher;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The JAR's own command line, as an operator meets it first: --version, --help, a typo. */
class VersionAndUsageAcceptanceTest {

    @Test
    void versionNamesTheMavenProjectVersionAndTheCommitAndExitsZero() throws Exception {
        CliProcess.Result version = CliProcess.run(Map.of(), "--version");

        assertEquals(0, version.exitCode(), version.toString());
        assertEquals("", version.err(), version.toString());
        String expected = "dagnats " + BuildVersion.expected();
        String commit = checkoutCommit();
        assertEquals(List.of(commit.isEmpty() ? expected : expected + " (commit " + commit + ")"), version.outLines());
    }

    @Test
    void aMisspeltOptionIsOneLineWithAHintAndExitsTwo() {
        CliProcess.Result typo = CliProcess.run(Map.of(), "--verison");

        assertEquals(2, typo.exitCode(), typo.toString());
        assertEquals(List.of("dagnats: unknown option '--verison'; did you mean --version? (try: dagnats --help)"),
                typo.err().lines().toList());
        assertEquals("", typo.out());
    }

    @Test
    void theHelpOfDagnatsAndOfServeListsEverySettingTheServiceReads() {
        for (String[] args : List.of(new String[] {"--help"}, new String[] {"serve", "--help"})) {
            CliProcess.Result help = CliProcess.run(Map.of(), args);

            assertEquals(0, help.exitCode(), help.toString());
            for (ServiceLauncher.Setting setting : KnownSettings.all()) {
                Pattern line = Pattern.compile("  " + Pattern.quote(setting.name()) + "\\s+\\S.*");
                assertTrue(help.outLines().stream().anyMatch(text -> line.matcher(text).matches()),
                        setting.name() + " missing from " + String.join(" ", args) + ":\n" + help.out());
            }
        }
        assertTrue(KnownSettings.all().stream().anyMatch(setting -> setting.name().equals("DAGNATS_HTTP_PORT")));
    }

    /** The checkout's commit as git names it, or empty outside a git checkout (a source archive). */
    private static String checkoutCommit() throws IOException, InterruptedException {
        Path root = FatJar.path().toAbsolutePath().normalize().getParent().getParent().getParent();
        if (!Files.exists(root.resolve(".git"))) {
            return "";
        }
        Process git = new ProcessBuilder("git", "rev-parse", "--short=7", "HEAD").directory(root.toFile()).start();
        String commit = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(git.waitFor(30, TimeUnit.SECONDS) && git.exitValue() == 0, "git rev-parse failed in " + root);
        return commit;
    }
}
