package io.dagnats.leases.acceptance.packaging;

import static io.dagnats.leases.acceptance.packaging.DeployedRepository.property;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.ServiceFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/examples/holder-user, a user's project that depends on dagnats-holder, built
 * by Maven as its user would, against the repository this build deployed to (every
 * other file it needs, jnats and the plugins, read from this build's own local
 * repository as if it were Maven Central: it reaches no network and writes nothing
 * there), then run: it keeps its lease through a real dagnats on a real nats-server.
 */
class HolderUserBuildIT {

    private static final List<String> DAGNATS_DEPENDENCIES =
            List.of("dagnats-holder", "dagnats-protocol", "dagnats-domain", "dagnats-leases-parent");
    private static final String KEY = "notify-leader";

    @Test
    void theExampleBuildsAgainstTheDeployedLibrariesAloneAndKeepsItsLease() throws Exception {
        DeployedRepository deployed = DeployedRepository.ofThisBuild();
        Path work = Path.of(property("holder-user.work"));
        UserBuild build = UserBuild.prepare(Path.of(property("holder-user.project")), work, deployed);

        UserBuild.Result result = build.compile();

        assertEquals(0, result.exitCode(), "the user's build failed:\n" + result.tail(60));
        for (String artifactId : DAGNATS_DEPENDENCIES) {
            assertEquals(List.of(UserBuild.DEPLOYED_ID), build.repositoriesServing(artifactId, deployed.version()),
                    artifactId + " must come from what this build deployed, and from nowhere else");
        }
        try (ServiceFixture service = ServiceFixture.start()) {
            Path output = work.resolve("notify.out");
            ProcessBuilder replica = build.java("com.example.notify.NotifyLeader", output);
            replica.environment().put("NATS_URL", service.nats.url());
            Process notify = replica.start();
            try {
                String leads = Polling.until(Duration.ofSeconds(30), "the user's replica leading",
                        () -> read(output), text -> text.contains(" leads, fence ") || !notify.isAlive());
                assertTrue(leads.contains(" leads, fence "), "the user's replica stopped before leading:\n" + leads);
                String line = leads.lines().filter(seen -> seen.contains(" leads, fence ")).findFirst().orElseThrow();
                String holder = line.substring(0, line.indexOf(" leads, fence "));
                JsonNode owner = service.client.owner(KEY);
                assertEquals(holder, owner.path("holder").asText(), "dagnats names the owner: " + owner);

                notify.destroy(); // SIGTERM: the example's shutdown hook closes its holder, which releases
                assertTrue(notify.waitFor(30, TimeUnit.SECONDS), "the user's replica did not stop:\n" + read(output));
                // Its TTL is 15 s: only a release frees the key this soon.
                Polling.until(Duration.ofSeconds(5), KEY + " released by the stopped replica",
                        () -> service.client.owner(KEY), reply -> !reply.path("held").asBoolean(true));
            } finally {
                notify.destroyForcibly();
            }
        }
    }

    /** The example names a version a user can find: the one this build deploys. */
    @Test
    void theExampleNamesTheVersionThisBuildDeploys() throws IOException {
        String pom = Files.readString(Path.of(property("holder-user.project")).resolve("pom.xml"));
        String version = property("dagnats.version");
        assertTrue(pom.contains("<dagnats.version>" + version + "</dagnats.version>"),
                "docs/examples/holder-user/pom.xml names another dagnats.version than " + version + ":\n"
                        + pom.lines().filter(line -> line.contains("dagnats.version")).collect(Collectors.joining("\n")));
    }

    private static String read(Path output) {
        try {
            return Files.readString(output);
        } catch (IOException notYet) {
            return "";
        }
    }
}
