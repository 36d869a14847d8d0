package io.dagnats.leases.acceptance.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.docs.MarkdownJavaSnippets.Snippet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Java snippet in the README or a guide is what a user copies first; one that no longer compiles
 * (a type that moved, a method that takes another type) costs them more than no snippet at all.
 * So every {@code ```java} block of README.md and docs/*.md (not the ADRs, which record what was
 * decided then) compiles against the holder library, fragments wrapped by the convention of
 * {@link MarkdownJavaSnippets}, and a refusal names page, line and the compiler's message.
 */
class JavaSnippetsCompileTest {

    static final Path REPOSITORY = Path.of(System.getProperty("repository.dir", "..")).toAbsolutePath().normalize();

    @Test
    void everyJavaSnippetOfTheReadmeAndGuidesCompilesAgainstTheHolderLibrary(@TempDir Path classes) throws IOException {
        List<Snippet> snippets = new ArrayList<>();
        for (Path page : pages()) {
            snippets.addAll(MarkdownJavaSnippets.of(REPOSITORY.relativize(page).toString(), Files.readString(page)));
        }
        assertFalse(snippets.isEmpty(), "no ```java block found in README.md or docs/*.md: is " + REPOSITORY + " the repository?");
        assertEquals(List.of(), SnippetCompiler.errors(snippets, classes), "snippets that do not compile");
    }

    @Test
    void aSnippetThatDoesNotCompileIsNamedByPageLineAndMessage(@TempDir Path classes) throws IOException {
        String page = String.join("\n",
                "# Example",                                                  // 1
                "<!-- snippet context",                                        // 2
                "import java.util.function.Supplier;",                         // 3
                "Supplier<String> name;",                                      // 4
                "-->",                                                         // 5
                "```java",                                                     // 6
                "String fine = name.get();",                                   // 7
                "LeaseKey key = new LeaseKey(fine);",                          // 8
                "```",                                                         // 9
                "```java",                                                     // 10
                "Duration ttl = Duration.ofSeconds(15);",                      // 11
                "KeptLease lease = holder.keep(\"k\", ttl, OwnershipListener.NONE);", // 12
                "```",                                                         // 13
                "```java",                                                     // 14
                "public record Whole(int n) { }",                              // 15
                "```");
        List<String> errors = SnippetCompiler.errors(MarkdownJavaSnippets.of("example.md", page), classes);

        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("example.md:12: cannot find symbol"), errors.get(0));
        assertTrue(errors.get(0).contains("holder"), errors.get(0));
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(REPOSITORY.resolve("README.md")));
        try (Stream<Path> docs = Files.list(REPOSITORY.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }
}
