package io.dagnats.leases.acceptance.packaging;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The file repository this build deployed to (Maven's remote layout), read the
 * way a resolver reads it: a SNAPSHOT's files are found through its version's
 * {@code maven-metadata.xml}, which lists each file (classifier and extension) of
 * the newest deployment; a release's by name alone.
 */
final class DeployedRepository {

    static final String GROUP = "io.dagnats.leases";

    private final Path root;
    private final String version;

    DeployedRepository(Path root, String version) {
        assertTrue(Files.isDirectory(root), "this build deployed nothing to " + root
                + " (its published modules deploy there in their pre-integration-test phase: run verify)");
        this.root = root;
        this.version = version;
    }

    /** This build's; a test that reads it is skipped when the build deploys nothing (-Dmaven.deploy.skip=true, as offline). */
    static DeployedRepository ofThisBuild() {
        assumeFalse(Boolean.parseBoolean(property("maven.deploy.skip")),
                "this build deploys nothing (-Dmaven.deploy.skip=true, which an offline build needs): nothing to check");
        return new DeployedRepository(Path.of(property("deploy-check.repository")), property("dagnats.version"));
    }

    static String property(String name) {
        String value = System.getProperty(name);
        assertTrue(value != null && !value.isBlank(), "system property " + name + " is not set (the module's POM sets it)");
        return value;
    }

    Path root() {
        return root;
    }

    String version() {
        return version;
    }

    /** The artifact ids deployed under the project's group. */
    List<String> artifactIds() throws IOException {
        try (Stream<Path> children = Files.list(groupFolder())) {
            return children.filter(Files::isDirectory).map(path -> path.getFileName().toString()).sorted()
                    .collect(Collectors.toList());
        }
    }

    /** The file of {@code artifactId} with that extension and classifier ("" for none); fails if it was not deployed. */
    Path file(String artifactId, String extension, String classifier) {
        Path folder = groupFolder().resolve(artifactId).resolve(version);
        String fileVersion = version.endsWith("-SNAPSHOT") ? snapshotValue(folder, extension, classifier) : version;
        Path file = folder.resolve(artifactId + "-" + fileVersion + (classifier.isEmpty() ? "" : "-" + classifier)
                + "." + extension);
        assertTrue(Files.isRegularFile(file), file + " is listed but missing");
        return file;
    }

    private Path groupFolder() {
        return root.resolve(GROUP.replace('.', '/'));
    }

    private static String snapshotValue(Path folder, String extension, String classifier) {
        Path metadata = folder.resolve("maven-metadata.xml");
        assertTrue(Files.isRegularFile(metadata), "no " + metadata + ": nothing of that version was deployed");
        NodeList listed = read(metadata).getElementsByTagName("snapshotVersion");
        for (int i = 0; i < listed.getLength(); i++) {
            Element entry = (Element) listed.item(i);
            if (childText(entry, "extension").equals(extension) && childText(entry, "classifier").equals(classifier)) {
                return childText(entry, "value");
            }
        }
        return fail(metadata + " lists no " + (classifier.isEmpty() ? "main" : classifier) + " " + extension);
    }

    /** The text of {@code element}'s direct child named {@code tag}, or "" when it has none. */
    static String childText(Element element, String tag) {
        Element child = child(element, tag);
        return child == null ? "" : child.getTextContent().trim();
    }

    /** {@code element}'s direct child named {@code tag}, or null when it has none. */
    static Element child(Element element, String tag) {
        for (Node node = element.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element && ((Element) node).getTagName().equals(tag)) {
                return (Element) node;
            }
        }
        return null;
    }

    static Document read(Path xml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(xml.toFile());
        } catch (ParserConfigurationException | SAXException | IOException unreadable) {
            throw new AssertionError("cannot read " + xml + ": " + unreadable, unreadable);
        }
    }
}
