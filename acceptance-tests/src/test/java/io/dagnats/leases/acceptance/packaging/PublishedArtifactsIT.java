package io.dagnats.leases.acceptance.packaging;

import static io.dagnats.leases.acceptance.packaging.DeployedRepository.child;
import static io.dagnats.leases.acceptance.packaging.DeployedRepository.childText;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * What {@code mvn deploy} publishes, read from the file repository this build
 * deployed to exactly as {@code mvn deploy} would (the same plugin, the same
 * skips): the libraries and their parent POM, each library with a sources and
 * a javadoc jar an IDE shows, and every POM with what Maven Central asks for.
 */
class PublishedArtifactsIT {

    private static final String PARENT = "dagnats-leases-parent";

    /** Each published library, and one public class whose source and javadoc page it must ship. */
    private static final Map<String, String> LIBRARIES = new TreeMap<>(Map.of(
            "dagnats-domain", "io/dagnats/leases/domain/Fence",
            "dagnats-protocol", "io/dagnats/leases/protocol/Answers",
            "dagnats-holder", "io/dagnats/leases/holder/LeaseHolder",
            "dagnats-fencing-jdbc", "io/dagnats/leases/fencing/jdbc/FencedWriter"));

    private DeployedRepository repository;

    @BeforeEach
    void readTheDeployedRepository() {
        repository = DeployedRepository.ofThisBuild();
    }

    @Test
    void onlyTheLibrariesAndTheirParentArePublished() throws IOException {
        List<String> expected = new ArrayList<>(LIBRARIES.keySet());
        expected.add(PARENT);
        expected.sort(null);
        assertEquals(expected, repository.artifactIds(),
                "the service, the CLI, the demo and the tests are not for users to depend on");
    }

    @Test
    void everyLibraryShipsItsSourcesAndJavadocBesideItsClasses() throws IOException {
        for (Map.Entry<String, String> library : LIBRARIES.entrySet()) {
            String artifactId = library.getKey();
            String type = library.getValue();
            assertHolds(repository.file(artifactId, "jar", ""), type + ".class");
            assertHolds(repository.file(artifactId, "jar", "sources"), type + ".java");
            Path javadoc = repository.file(artifactId, "jar", "javadoc");
            assertHolds(javadoc, "index.html");
            assertHolds(javadoc, type + ".html");
        }
    }

    @Test
    void everyPublishedPomNamesWhatMavenCentralAsksFor() {
        Element parent = pom(PARENT);
        assertFalse(childText(parent, "url").isEmpty(), "the parent POM has no url");
        Element license = child(child(parent, "licenses"), "license");
        assertEquals("Apache License, Version 2.0", childText(license, "name"), "the LICENSE file is Apache 2.0");
        assertFalse(childText(license, "url").isEmpty(), "the licence has no url");
        Element developer = child(child(parent, "developers"), "developer");
        assertNotNull(developer, "the parent POM names no developer");
        assertFalse(childText(developer, "name").isEmpty(), "the developer has no name");
        Element scm = child(parent, "scm");
        assertNotNull(scm, "the parent POM has no scm");
        assertTrue(childText(scm, "connection").startsWith("scm:git:"), "scm connection: " + childText(scm, "connection"));
        assertFalse(childText(scm, "url").isEmpty(), "scm has no url");

        for (String artifactId : LIBRARIES.keySet()) {
            Element pom = pom(artifactId);
            // Maven inherits the rest from the parent; name it does not, and a description
            // it would inherit would describe the whole project instead of the module.
            assertFalse(childText(pom, "name").isEmpty(), artifactId + " has no name");
            assertFalse(childText(pom, "description").isEmpty(), artifactId + " has no description of its own");
            Element parentReference = child(pom, "parent");
            assertEquals(PARENT, childText(parentReference, "artifactId"), artifactId + "'s parent");
            assertEquals(repository.version(), childText(parentReference, "version"), artifactId + "'s parent version");
            for (String inherited : List.of("url", "licenses", "developers", "scm")) {
                assertEquals(null, child(pom, inherited), artifactId + " overrides the parent's " + inherited);
            }
        }
    }

    private Element pom(String artifactId) {
        return DeployedRepository.read(repository.file(artifactId, "pom", "")).getDocumentElement();
    }

    private static void assertHolds(Path jar, String entry) throws IOException {
        try (JarFile opened = new JarFile(jar.toFile())) {
            assertNotNull(opened.getEntry(entry), jar.getFileName() + " has no " + entry);
        }
    }
}
