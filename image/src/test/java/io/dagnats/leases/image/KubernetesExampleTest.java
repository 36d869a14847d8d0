package io.dagnats.leases.image;

import static io.dagnats.leases.image.DeploymentExamples.DRAIN_SECONDS;
import static io.dagnats.leases.image.DeploymentExamples.EXAMPLES;
import static io.dagnats.leases.image.DeploymentExamples.isListed;
import static io.dagnats.leases.image.DeploymentExamples.readmeSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/examples/kubernetes as an operator takes it: it runs the image this build makes as a
 * non-root user, configured only by settings docs/configuration.md lists, with probes on the port dagnats
 * serves HTTP on, and NATS as docs/deploying.md asks for it (JetStream on three servers, every write synced).
 */
class KubernetesExampleTest {

    private static final YAMLMapper YAML = new YAMLMapper();
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
            assertTrue(isListed(name, listed), name + " is no setting docs/configuration.md lists: " + listed);
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
        assertEquals("always", jetStream.at("/merge/sync_interval").asText(), "docs/deploying.md: why every write is synced");
        assertEquals(config.at("/cluster/replicas").asText(), value("DAGNATS_LEASE_REPLICAS"),
                "the bucket has one replica per server");
        assertEquals("nats://nats:4222", value("NATS_URL"), "the chart's Service of the release named nats");
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
}
