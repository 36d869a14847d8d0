package io.dagnats.leases.image;

import static io.dagnats.leases.image.DeploymentExamples.DRAIN_SECONDS;
import static io.dagnats.leases.image.DeploymentExamples.EXAMPLES;
import static io.dagnats.leases.image.DeploymentExamples.isListed;
import static io.dagnats.leases.image.DeploymentExamples.readmeSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** docs/examples/systemd as an operator takes it: the fat JAR, hardened, configured only by settings docs/configuration.md lists. */
class SystemdExampleTest {

    @Test
    void theSystemdUnitRunsTheJarHardenedAndConfiguredByItsEnvironmentFile() throws IOException {
        Map<String, List<String>> unit = unit(EXAMPLES.resolve("systemd/dagnats.service"));
        List<String> command = List.of(only(unit, "ExecStart").split("\\s+"));
        assertEquals("-jar", command.get(command.size() - 2), command.toString());
        assertTrue(command.get(command.size() - 1).endsWith("/dagnats.jar"), command.toString());
        assertEquals("yes", only(unit, "DynamicUser"));
        assertEquals("strict", only(unit, "ProtectSystem"));
        assertEquals("on-failure", only(unit, "Restart"));
        assertTrue(Integer.parseInt(only(unit, "TimeoutStopSec").replace("s", "")) > DRAIN_SECONDS);
        assertFalse(unit.containsKey("MemoryDenyWriteExecute"), "the JIT writes the code it runs");
        assertEquals("/etc/dagnats/dagnats.env", only(unit, "EnvironmentFile"));

        Map<String, String> settings = new LinkedHashMap<>();
        for (String line : Files.readAllLines(EXAMPLES.resolve("systemd/dagnats.env"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] pair = line.split("=", 2);
                settings.put(pair[0], pair[1]);
            }
        }
        Set<String> listed = readmeSettings();
        settings.keySet().forEach(name -> assertTrue(isListed(name, listed), name + " is no setting docs/configuration.md lists"));
        String credential = only(unit, "LoadCredential").split(":")[0];
        assertEquals("/run/credentials/dagnats.service/" + credential, settings.get("NATS_CREDS"));
    }

    @Test
    void systemdAnalyzeVerifiesTheUnit() throws IOException, InterruptedException {
        Assumptions.assumeTrue(onPath("systemd-analyze"), "systemd-analyze is not installed: the unit is only parsed");
        Process verify = new ProcessBuilder("systemd-analyze", "verify",
                EXAMPLES.resolve("systemd/dagnats.service").toString()).redirectErrorStream(true).start();
        String said = new String(verify.getInputStream().readAllBytes());
        assertTrue(verify.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, verify.exitValue(), said);
        assertEquals("", said.strip(), "systemd-analyze verify has something to say");
    }

    /** A unit file's keys and their values, every section together (none repeats a key across sections). */
    private static Map<String, List<String>> unit(Path file) throws IOException {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("#") || line.startsWith("[")) {
                continue;
            }
            String[] pair = line.split("=", 2);
            keys.computeIfAbsent(pair[0], key -> new ArrayList<>()).add(pair[1]);
        }
        return keys;
    }

    private static String only(Map<String, List<String>> unit, String key) {
        List<String> values = unit.getOrDefault(key, List.of());
        assertEquals(1, values.size(), key + ": " + values);
        return values.get(0);
    }

    private static boolean onPath(String program) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!directory.isEmpty() && Files.isExecutable(Path.of(directory, program))) {
                return true;
            }
        }
        return false;
    }
}
