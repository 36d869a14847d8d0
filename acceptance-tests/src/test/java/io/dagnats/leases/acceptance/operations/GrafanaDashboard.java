package io.dagnats.leases.acceptance.operations;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.WireClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The queries of a Grafana dashboard (its JSON model), each as the PromQL Prometheus would
 * get: Grafana's own variables ({@code $__rate_interval}...) and the dashboard's template
 * variables replaced by concrete values, as Grafana does before it sends a query.
 */
final class GrafanaDashboard {

    /** One target of one panel, named as a reader of the dashboard finds it. */
    record Query(String panel, String refId, String expr) {

        @Override
        public String toString() {
            return "panel \"" + panel + "\", query " + refId + ": " + expr;
        }
    }

    /** A Grafana or template variable: {@code $name}, {@code ${name}} or {@code ${name:format}}. */
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)(?::\\w+)?}|\\$(\\w+)");

    private final JsonNode model;

    private GrafanaDashboard(JsonNode model) {
        this.model = model;
    }

    static GrafanaDashboard read(Path file) throws IOException {
        return new GrafanaDashboard(WireClient.json(Files.readString(file)));
    }

    /** Every panel's targets, rows' nested panels included, in the order the dashboard lists them. */
    List<Query> queries() {
        List<Query> queries = new ArrayList<>();
        collect(model.path("panels"), queries);
        return queries;
    }

    private static void collect(JsonNode panels, List<Query> into) {
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                if (target.hasNonNull("expr")) {
                    into.add(new Query(panel.path("title").asText(), target.path("refId").asText(),
                            target.path("expr").asText()));
                }
            }
            collect(panel.path("panels"), into);
        }
    }

    /**
     * {@code expr} with every variable replaced: Grafana's from {@code builtins}, each template
     * variable by its "All" value (the dashboard's {@code allValue}, else {@code .+}).
     *
     * @throws AssertionError naming a variable that is neither
     */
    String promql(Query query, Map<String, String> builtins) {
        Map<String, String> values = new LinkedHashMap<>(builtins);
        for (JsonNode variable : model.path("templating").path("list")) {
            String all = variable.path("allValue").asText("");
            values.put(variable.path("name").asText(), all.isEmpty() ? ".+" : all);
        }
        Matcher matcher = VARIABLE.matcher(query.expr());
        StringBuilder promql = new StringBuilder();
        while (matcher.find()) {
            String name = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
            String value = values.get(name);
            if (value == null) {
                throw new AssertionError(query + " uses $" + name + ", which neither Grafana nor the dashboard defines");
            }
            matcher.appendReplacement(promql, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(promql);
        return promql.toString();
    }
}
