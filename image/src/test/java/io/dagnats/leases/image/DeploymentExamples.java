package io.dagnats.leases.image;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where docs/examples lives, the settings docs/configuration.md lists, and the drain bound a stop must outlast. */
final class DeploymentExamples {

    static final Path EXAMPLES = Path.of(System.getProperty("examples.dir", "../docs/examples"));
    /** The drain's default bound (DAGNATS_DRAIN_TIMEOUT_MS): a stop must wait longer. */
    static final int DRAIN_SECONDS = 10;

    private DeploymentExamples() {
    }

    /**
     * The settings the configuration reference's table names ({@code OTEL_*} as a prefix): the guide an
     * operator configures from, so an example that sets anything else would send them to a setting it never names.
     */
    static Set<String> readmeSettings() throws IOException {
        List<String> readme = Files.readAllLines(EXAMPLES.resolve("../configuration.md").normalize());
        int start = readme.indexOf("## Environment variables");
        assertTrue(start >= 0, "docs/configuration.md has no Environment variables section");
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
        assertTrue(names.contains("NATS_URL"), "no settings read from docs/configuration.md: " + names);
        return names;
    }

    static boolean isListed(String setting, Set<String> listed) {
        return listed.contains(setting) || listed.stream()
                .anyMatch(prefix -> prefix.endsWith("*") && setting.startsWith(prefix.substring(0, prefix.length() - 1)));
    }
}
