package io.dagnats.leases.acceptance.operations;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A scrape parsed by a real Prometheus parser: the Prometheus Python client's
 * ({@code prometheus_client.parser}), run through scripts/parse-prometheus.py
 * as scripts/prometheus-parser.sh says (system property {@code prometheus.parser}).
 * No regular expression of ours reads the text.
 */
final class PrometheusParser {

    /** One metric family as the parser read it. */
    record Family(String name, String type, List<Sample> samples) {
    }

    /** One sample: its full name ({@code _bucket}, {@code _total}...), labels and value. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private PrometheusParser() {
    }

    /** Every family in {@code exposition}; fails the test when the parser refuses the text. */
    static List<Family> parse(String exposition) throws IOException, InterruptedException {
        String command = System.getProperty("prometheus.parser", "");
        if (command.isBlank() || command.startsWith("${")) {
            throw new IllegalStateException("system property prometheus.parser must say how to run"
                    + " scripts/parse-prometheus.py; run the tests with scripts/test.sh, which installs the parser");
        }
        Process parser = new ProcessBuilder(List.of(command.strip().split("\\s+"))).start();
        try (OutputStream in = parser.getOutputStream()) {
            in.write(exposition.getBytes(StandardCharsets.UTF_8));
        }
        byte[] out = parser.getInputStream().readAllBytes();
        String err = new String(parser.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!parser.waitFor(60, TimeUnit.SECONDS) || parser.exitValue() != 0) {
            throw new AssertionError("the Prometheus parser refused the scrape: " + err + "\n" + exposition);
        }
        List<Family> families = new ArrayList<>();
        for (JsonNode family : WireClient.JSON.readTree(out)) {
            List<Sample> samples = new ArrayList<>();
            for (JsonNode sample : family.path("samples")) {
                Map<String, String> labels = new TreeMap<>();
                sample.path("labels").fields().forEachRemaining(label -> labels.put(label.getKey(), label.getValue().asText()));
                JsonNode value = sample.path("value");
                samples.add(new Sample(sample.path("name").asText(), labels,
                        value.isNumber() ? value.asDouble() : Double.parseDouble(value.asText())));
            }
            families.add(new Family(family.path("name").asText(), family.path("type").asText(), samples));
        }
        return families;
    }

    static Optional<Family> family(List<Family> families, String name) {
        return families.stream().filter(family -> family.name().equals(name)).findFirst();
    }
}
