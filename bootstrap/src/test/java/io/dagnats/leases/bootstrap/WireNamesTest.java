package io.dagnats.leases.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The wire contract is spelled once, in {@code protocol}: no other module's main
 * code holds a string literal naming a lease subject or header. (ArchUnit sees
 * classes, not constants the compiler inlined, so this reads the sources.)
 *
 * <p>"dagnats.lease." on its own is not a wire prefix: it also begins the
 * telemetry attribute names ({@code dagnats.lease.key}), which are no part of
 * the contract. The subjects under it are.
 */
class WireNamesTest {

    private static final List<String> WIRE_NAMES = List.of(
            "api.leases", "dagnats.lease.changed", "dagnats.lease.inbox", "Dagnats-Lease-", "dagnats-api",
            "Nats-Service-Error");

    /**
     * Known spellings outside protocol, each with the reason it stays for now.
     * Empty it as they go; a new one fails this test.
     */
    private static final Map<String, String> KNOWN = Map.of();

    @Test
    void noModuleButProtocolSpellsASubjectOrHeader() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<String> found = new ArrayList<>();
        List<Path> read = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(path -> Files.isDirectory(path.resolve("src/main/java"))).toList()) {
                if (module.getFileName().toString().equals("protocol")) {
                    continue;
                }
                try (Stream<Path> sources = Files.walk(module.resolve("src/main/java"))) {
                    for (Path source : sources.filter(path -> path.toString().endsWith(".java")).toList()) {
                        read.add(source);
                        String relative = root.relativize(source).toString().replace('\\', '/');
                        if (KNOWN.containsKey(relative)) {
                            continue;
                        }
                        for (String literal : literals(Files.readString(source))) {
                            for (String name : WIRE_NAMES) {
                                if (literal.contains(name)) {
                                    found.add(relative + ": \"" + literal + "\"");
                                }
                            }
                        }
                    }
                }
            }
        }
        assertTrue(read.size() > 50, "read only " + read.size() + " sources under " + root);
        assertEquals(List.of(), found, "wire names belong in protocol (LeaseSubjects, LeaseHeaders, ServiceErrors, Operation)");
    }

    @Test
    void literalsAreReadFromCodeNotComments() {
        assertEquals(List.of("a\\\"b", "c", "text\nblock\n"), literals(
                "// \"api.leases.x\"\n/* \"Dagnats-Lease-Fence\" */ String a = \"a\\\"b\" + 'x' + '\"' + \"c\";\n"
                        + "String t = \"\"\"\ntext\nblock\n\"\"\";"));
    }

    /** The string literals (and text blocks) of one Java source, comments skipped. */
    static List<String> literals(String source) {
        List<String> literals = new ArrayList<>();
        int i = 0;
        while (i < source.length()) {
            if (source.startsWith("//", i)) {
                int end = source.indexOf('\n', i);
                i = end < 0 ? source.length() : end;
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                i = end < 0 ? source.length() : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                int start = source.indexOf('\n', i) + 1;
                int end = source.indexOf("\"\"\"", start);
                literals.add(source.substring(start, end));
                i = end + 3;
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                char quote = source.charAt(i);
                int end = i + 1;
                while (source.charAt(end) != quote) {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                if (quote == '"') {
                    literals.add(source.substring(i + 1, end));
                }
                i = end + 1;
            } else {
                i++;
            }
        }
        return literals;
    }
}
