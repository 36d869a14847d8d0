package io.dagnats.leases.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.cli.ServiceLauncher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings the help lists are exactly the ones the settings code reads: the list and the reader cannot drift. */
class KnownSettingsTest {

    /** An environment that remembers every variable it was asked for by name. */
    private static final class RecordingEnvironment extends HashMap<String, String> {
        private static final long serialVersionUID = 1L;
        final Set<String> asked = new TreeSet<>();

        RecordingEnvironment(Map<String, String> values) {
            super(values);
        }

        @Override
        public String get(Object name) {
            asked.add((String) name);
            return super.get(name);
        }
    }

    private static Set<String> listed() {
        return KnownSettings.all().stream().map(ServiceLauncher.Setting::name).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void everyVariableTheReaderReadsIsListedAndEveryListedOneIsRead(@TempDir Path files) throws IOException {
        Path file = Files.writeString(files.resolve("creds"), "x");
        // Two environments: nothing set, and every setting set (accounts mode reads its account settings).
        RecordingEnvironment empty = new RecordingEnvironment(Map.of());
        RecordingEnvironment full = new RecordingEnvironment(Map.ofEntries(
                Map.entry("NATS_URL", "nats://127.0.0.1:4222"), Map.entry("NATS_CREDS", file.toString()),
                Map.entry("NATS_CA", file.toString()), Map.entry("NATS_CERT", file.toString()),
                Map.entry("NATS_KEY", file.toString()), Map.entry("DAGNATS_LEASE_REPLICAS", "3"),
                Map.entry("DAGNATS_MARKER_TTL_SECONDS", "30"), Map.entry("DAGNATS_JETSTREAM_TIMEOUT_MS", "1000"),
                Map.entry("DAGNATS_DRAIN_TIMEOUT_MS", "1000"), Map.entry("DAGNATS_IDENTITY", "accounts"),
                Map.entry("DAGNATS_IDENTITY_ACCOUNT", "DAGNATS"), Map.entry("DAGNATS_IDENTITY_OPERATORS", "OPS"),
                Map.entry("DAGNATS_HTTP_PORT", "0"), Map.entry("DAGNATS_HTTP_ADDRESS", "127.0.0.1"),
                Map.entry("OTEL_METRICS_EXPORTER", "console")));
        Settings.fromEnvironment(empty);
        Settings.fromEnvironment(full);

        Set<String> read = new TreeSet<>(empty.asked);
        read.addAll(full.asked);
        Set<String> unlisted = new TreeSet<>(read);
        unlisted.removeAll(listed());
        assertEquals(Set.of(), unlisted, "read by the settings code but missing from KnownSettings (and the help)");

        Set<String> neverRead = new TreeSet<>(listed());
        neverRead.removeAll(read);
        // OTEL_* is a family: TelemetrySettings takes every OTEL_ variable, asking for none by name.
        assertEquals(Set.of(KnownSettings.OTEL_FAMILY), neverRead, "listed in the help but read by nothing");
        assertTrue(full.keySet().containsAll(KnownSettings.dagnatsNames()), "the full environment sets every DAGNATS_ one");
    }

    @Test
    void theStrictCheckKnowsExactlyTheListedDagnatsNames() {
        for (String name : KnownSettings.dagnatsNames()) {
            assertTrue(listed().contains(name), name);
        }
        assertTrue(KnownSettings.dagnatsNames().contains("DAGNATS_HTTP_PORT"));
        assertEquals(KnownSettings.dagnatsNames(), listed().stream().filter(name -> name.startsWith("DAGNATS_"))
                .collect(Collectors.toCollection(TreeSet::new)));
    }
}
