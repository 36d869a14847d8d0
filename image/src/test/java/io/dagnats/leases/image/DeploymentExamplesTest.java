package io.dagnats.leases.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/examples/kubernetes and docs/examples/systemd as an operator takes them: they run the image
 * this build makes (or the fat JAR) as a non-root user, configured only by settings the README
 * lists, with probes on the port dagnats serves HTTP on, and NATS as the README asks for it
 * (JetStream on three servers, every write synced).
 */
class DeploymentExamplesTest {

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final Path EXAMPLES = Path.of(System.getProperty("examples.dir", "../docs/examples"));
    /** The drain's default bound (DAGNATS_DRAIN_TIMEOUT_MS): a stop must wait longer. */
    private static final int DRAIN_SECONDS = 10;

    private static JsonNode deployment;
    private static JsonNode disruptionBudget;
    private static JsonNode metricsService;
    private static JsonNode container;
    private static Map<String, JsonNode> environment;

    @BeforeAll
    static void readTheManifests() throws IOException {
        Map<String, JsonNode> byKind = new HashMap<>();
        for (JsonNode document : documents(EXAMPLES.resolve("kubernetes/dagnats.yaml"))) {
            assertTrue(byKind.put(document.path("kind").asText(), document) == null, "two " + document.path("kind"));
        }
        assertEquals(Set.of("Deployment", "PodDisruptionBudget", "Service"), byKind.keySet());
        deployment = byKind.get("Deployment");
        disruptionBudget = byKind.get("PodDisruptionBudget");
        metricsService = byKind.get("Service");
        JsonNode containers = deployment.at("/spec/template/spec/containers");
        assertEquals(1, containers.size(), containers.toString());
        container = containers.get(0);
        environment = new LinkedHashMap<>();
        container.path("env").forEach(variable -> environment.put(variable.path("name").asText(), variable));
    }

    @Test
    void theDeploymentRunsTheImageThisBuildMakesAsItsNonRootUser() {
        assertEquals(System.getProperty("image.reference"), container.path("image").asText());
        String[] user = System.getProperty("image.user").split(":");
        JsonNode pod = deployment.at("/spec/template/spec/securityContext");
        assertTrue(pod.path("runAsNonRoot").asBoolean(), pod.toString());
        assertEquals(user[0], pod.path("runAsUser").asText(), pod.toString());
        assertEquals(user[1], pod.path("runAsGroup").asText(), pod.toString());
        JsonNode own = container.path("securityContext");
        assertFalse(own.path("allowPrivilegeEscalation").asBoolean(true), own.toString());
        assertTrue(own.path("readOnlyRootFilesystem").asBoolean(), "the image writes nothing: " + own);
        assertEquals("[\"ALL\"]", own.at("/capabilities/drop").toString(), own.toString());
    }

    @Test
    void itsProbesAndScrapeUseThePortDagnatsServesHttpOn() {
        String port = value("DAGNATS_HTTP_PORT");
        assertEquals("0.0.0.0", value("DAGNATS_HTTP_ADDRESS"), "the kubelet probes from outside the pod");
        JsonNode ports = container.path("ports");
        assertEquals(1, ports.size(), ports.toString());
        String portName = ports.get(0).path("name").asText();
        assertEquals(port, ports.get(0).path("containerPort").asText(), ports.toString());
        assertProbe("startupProbe", "/livez", portName);
        assertProbe("livenessProbe", "/livez", portName);
        assertProbe("readinessProbe", "/readyz", portName);

        assertEquals("None", metricsService.at("/spec/clusterIP").asText(), "every instance is scraped on its own");
        assertEquals(deployment.at("/spec/selector/matchLabels"), metricsService.at("/spec/selector"));
        JsonNode servicePort = metricsService.at("/spec/ports/0");
        assertEquals(portName, servicePort.path("targetPort").asText(), servicePort.toString());
        assertEquals(port, servicePort.path("port").asText(), servicePort.toString());
        JsonNode annotations = metricsService.at("/metadata/annotations");
        assertEquals("/metrics", annotations.path("prometheus.io/path").asText(), annotations.toString());
        assertEquals(port, annotations.path("prometheus.io/port").asText(), annotations.toString());
    }

    @Test
    void itIsConfiguredOnlyBySettingsTheReadmeListsWithThePasswordFromASecret() throws IOException {
        Set<String> listed = readmeSettings();
        for (String name : environment.keySet()) {
            assertTrue(isListed(name, listed), name + " is no setting the README lists: " + listed);
        }
        assertEquals("dagnats-nats", environment.get("NATS_PASSWORD").at("/valueFrom/secretKeyRef/name").asText());
        environment.forEach((name, variable) -> assertFalse(
                name.matches(".*(PASSWORD|TOKEN)$") && variable.has("value"),
                name + " is written into the manifest instead of coming from a Secret"));
        assertFalse(deployment.at("/spec/template/spec/enableServiceLinks").asBoolean(true),
                "Service links would put DAGNATS_METRICS_PORT into the environment, an unknown setting");
    }

    @Test
    void itRunsSeveralInstancesWithResourcesAndADisruptionBudget() {
        int replicas = deployment.at("/spec/replicas").asInt();
        assertTrue(replicas >= 2, "one instance is a single point of failure: " + replicas);
        JsonNode resources = container.path("resources");
        for (String pointer : List.of("/requests/cpu", "/requests/memory", "/limits/memory")) {
            assertFalse(resources.at(pointer).asText().isEmpty(), "no " + pointer + ": " + resources);
        }
        assertEquals(deployment.at("/spec/selector"), disruptionBudget.at("/spec/selector"));
        assertEquals(1, disruptionBudget.at("/spec/maxUnavailable").asInt(), disruptionBudget.toString());
        assertTrue(deployment.at("/spec/template/spec/terminationGracePeriodSeconds").asInt() > DRAIN_SECONDS,
                "Kubernetes would kill dagnats while it drains");
    }

    @Test
    void theNatsChartValuesRunJetStreamOnThreeServersSyncingEveryWrite() throws IOException {
        List<JsonNode> documents = documents(EXAMPLES.resolve("kubernetes/nats-values.yaml"));
        assertEquals(1, documents.size());
        JsonNode config = documents.get(0).path("config");
        assertTrue(config.at("/cluster/enabled").asBoolean(), config.toString());
        assertEquals(3, config.at("/cluster/replicas").asInt(), config.toString());
        JsonNode jetStream = config.path("jetstream");
        assertTrue(jetStream.path("enabled").asBoolean(), jetStream.toString());
        assertTrue(jetStream.at("/fileStore/enabled").asBoolean(), jetStream.toString());
        assertTrue(jetStream.at("/fileStore/pvc/enabled").asBoolean(), jetStream.toString());
        assertFalse(jetStream.at("/memoryStore/enabled").asBoolean(), jetStream.toString());
        assertEquals("always", jetStream.at("/merge/sync_interval").asText(), "README: why every write is synced");
        assertEquals(config.at("/cluster/replicas").asText(), value("DAGNATS_LEASE_REPLICAS"),
                "the bucket has one replica per server");
        assertEquals("nats://nats:4222", value("NATS_URL"), "the chart's Service of the release named nats");
    }

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
        settings.keySet().forEach(name -> assertTrue(isListed(name, listed), name + " is no setting the README lists"));
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

    private void assertProbe(String probe, String path, String port) {
        JsonNode get = container.path(probe).path("httpGet");
        assertEquals(path, get.path("path").asText(), probe + ": " + get);
        assertEquals(port, get.path("port").asText(), probe + ": " + get);
    }

    private static String value(String setting) {
        JsonNode variable = environment.get(setting);
        assertTrue(variable != null && variable.has("value"), "the Deployment sets no " + setting);
        return variable.path("value").asText();
    }

    private static List<JsonNode> documents(Path file) throws IOException {
        return YAML.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile()).readAll();
    }

    /**
     * The settings the README's Configuration table names ({@code OTEL_*} as a prefix).
     */
    private static Set<String> readmeSettings() throws IOException {
        List<String> readme = Files.readAllLines(EXAMPLES.resolve("../../README.md").normalize());
        int start = readme.indexOf("## Configuration");
        assertTrue(start >= 0, "the README has no Configuration section");
        Set<String> names = new TreeSet<>();
        Pattern name = Pattern.compile("`([A-Z][A-Z0-9_]*\\*?)`");
        for (String line : readme.subList(start + 1, readme.size())) {
            if (line.startsWith("## ")) {
                break;
            }
            if (line.startsWith("| `")) {
                Matcher found = name.matcher(line.split("\\|")[1]);
                while (found.find()) {
                    names.add(found.group(1));
                }
            }
        }
        assertTrue(names.contains("NATS_URL"), "no settings read from the README: " + names);
        return names;
    }

    private static boolean isListed(String setting, Set<String> listed) {
        return listed.contains(setting) || listed.stream()
                .anyMatch(prefix -> prefix.endsWith("*") && setting.startsWith(prefix.substring(0, prefix.length() - 1)));
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
