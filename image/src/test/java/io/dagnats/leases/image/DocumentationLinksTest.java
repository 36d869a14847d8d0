package io.dagnats.leases.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README is the door to the guides, and the guides send readers to each other: a link that
 * leads nowhere strands the reader, and moving text between pages breaks links silently. So
 * every relative link of README.md, DEVELOPMENT.md and docs/**.md must name an existing file,
 * and an {@code #anchor} an existing heading of the page it names.
 */
class DocumentationLinksTest {

    static final Path REPOSITORY = Path.of(System.getProperty("repository.dir", "..")).toAbsolutePath().normalize();

    @Test
    void everyRelativeLinkOfTheDocumentationLeadsToAFileAndHeadingThatExist() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            for (String target : MarkdownLinks.relativeTargets(Files.readString(page))) {
                brokenLink(page, target).ifPresentOrElse(broken::add, () -> { });
            }
        }
        assertEquals(List.of(), broken, "links that lead nowhere");
    }

    @Test
    void theReadmeLinksEveryGuide() throws IOException {
        Set<String> linked = Set.copyOf(MarkdownLinks.relativeTargets(Files.readString(REPOSITORY.resolve("README.md"))));
        try (Stream<Path> guides = Files.list(REPOSITORY.resolve("docs"))) {
            guides.filter(path -> path.toString().endsWith(".md"))
                    .map(guide -> "docs/" + guide.getFileName())
                    .forEach(guide -> assertTrue(linked.contains(guide), "the README does not link " + guide));
        }
        assertTrue(linked.contains("DEVELOPMENT.md"), "the README does not link DEVELOPMENT.md");
    }

    @Test
    void aLinkToAMissingFileOrHeadingIsFoundAndAGoodOneIsNot() throws IOException {
        Path readme = REPOSITORY.resolve("README.md");
        assertTrue(brokenLink(readme, "docs/no-such-guide.md").isPresent());
        assertTrue(brokenLink(readme, "docs/wire-protocol.md#no-such-heading").isPresent());
        assertTrue(brokenLink(readme, "#no-such-heading").isPresent());
        assertTrue(brokenLink(readme, "docs/wire-protocol.md#owner-side-holder-rules-for-any-holder-implementation").isEmpty());
        assertTrue(brokenLink(readme, "#the-two-commands").isEmpty());
        assertTrue(brokenLink(readme, "docs/examples/kubernetes").isEmpty());
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(REPOSITORY.resolve("README.md"), REPOSITORY.resolve("DEVELOPMENT.md")));
        try (Stream<Path> docs = Files.walk(REPOSITORY.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** Why a link of a page leads nowhere, or empty when it leads to an existing file (and heading). */
    private static Optional<String> brokenLink(Path page, String target) throws IOException {
        int hash = target.indexOf('#');
        String file = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        String where = REPOSITORY.relativize(page) + ": " + target;
        if (!resolved.startsWith(REPOSITORY) || !Files.exists(resolved)) {
            return java.util.Optional.of(where + " (no such file)");
        }
        if (hash >= 0 && resolved.toString().endsWith(".md")) {
            String anchor = target.substring(hash + 1);
            if (!MarkdownLinks.anchors(Files.readString(resolved)).contains(anchor)) {
                return java.util.Optional.of(where + " (no such heading)");
            }
        }
        return java.util.Optional.empty();
    }
}
