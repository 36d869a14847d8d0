package io.dagnats.leases.acceptance.packaging;

import static io.dagnats.leases.acceptance.packaging.DeployedRepository.property;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A copy of a user's project under target/, and a Maven (the one running this
 * build) to build it with its own settings: the deployed repository as a
 * repository, and a mirror of every other repository onto this build's local
 * repository, read as a file repository. Its own local repository starts empty,
 * so all it resolves is seen coming from one of the two.
 */
final class UserBuild {

    static final String DEPLOYED_ID = "deploy-check";
    static final String MIRROR_ID = "this-build-local-repository";

    private final Path project;
    private final Path settings;
    private final Path localRepository;
    private final Path log;
    private final Path classpath;

    private UserBuild(Path project, Path settings, Path localRepository, Path log, Path classpath) {
        this.project = project;
        this.settings = settings;
        this.localRepository = localRepository;
        this.log = log;
        this.classpath = classpath;
    }

    static UserBuild prepare(Path example, Path work, DeployedRepository deployed) throws IOException {
        assertTrue(Files.isRegularFile(example.resolve("pom.xml")), "no user project at " + example);
        deleteRecursively(work);
        Files.createDirectories(work);
        Path project = work.resolve("project");
        copyRecursively(example, project);
        Path settings = work.resolve("settings.xml");
        Files.writeString(settings, settingsXml(deployed.root(), Path.of(property("maven.local.repository"))));
        return new UserBuild(project, settings, work.resolve("repository"), work.resolve("build.log"),
                work.resolve("classpath.txt"));
    }

    Path project() {
        return project;
    }

    /** Compiles the project and writes its runtime classpath (dependencies only) for {@link #java}. */
    Result compile() throws IOException, InterruptedException {
        return run("compile", "org.apache.maven.plugins:maven-dependency-plugin:"
                + property("dependency-plugin.version") + ":build-classpath",
                "-Dmdep.outputFile=" + classpath, "-Dmdep.includeScope=runtime");
    }

    /** {@code java -cp <classes and dependencies> mainClass}, its output to {@code output}. */
    ProcessBuilder java(String mainClass, Path output) throws IOException {
        String dependencies = Files.readString(classpath).trim();
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", project.resolve("target/classes") + File.pathSeparator + dependencies, mainClass)
                .redirectErrorStream(true).redirectOutput(output.toFile());
    }

    Result run(String... goals) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(property("maven.home"), "bin", "mvn").toString(), "-B", "-ntp", "-Dstyle.color=never",
                "-s", settings.toString(), "-Dmaven.repo.local=" + localRepository,
                // The compiler plugin this build used is the one its local repository holds.
                "-Dcompiler-plugin.version=" + property("compiler-plugin.version")));
        command.addAll(List.of(goals));
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        // A short build: the quick JIT alone spends less CPU on it.
        builder.environment().merge("MAVEN_OPTS", "-XX:TieredStopAtLevel=1", (theirs, ours) -> theirs + " " + ours);
        Process maven = builder.start();
        if (!maven.waitFor(5, TimeUnit.MINUTES)) {
            maven.destroyForcibly();
            maven.waitFor();
        }
        return new Result(maven.exitValue(), Files.readAllLines(log));
    }

    /** The ids of the repositories the user's build took that version's files from. */
    List<String> repositoriesServing(String artifactId, String version) throws IOException {
        Path record = localRepository.resolve(DeployedRepository.GROUP.replace('.', '/'))
                .resolve(artifactId).resolve(version).resolve("_remote.repositories");
        assertTrue(Files.isRegularFile(record), "the user's build resolved nothing of " + artifactId + " " + version);
        // Lines read "<file>><repository id>=".
        return Files.readAllLines(record).stream().filter(line -> line.contains(">") && !line.startsWith("#"))
                .map(line -> line.substring(line.indexOf('>') + 1, line.lastIndexOf('=')))
                .distinct().sorted().collect(Collectors.toList());
    }

    private static String settingsXml(Path deployed, Path thisBuildsRepository) {
        // A local repository keeps no checksum of many files, so the mirror (which takes
        // central's policy) ignores checksums; the deployed files' must match.
        String central = "<releases><checksumPolicy>ignore</checksumPolicy></releases>"
                + "<snapshots><enabled>false</enabled></snapshots>";
        return "<settings>\n"
                + "  <mirrors>\n"
                + "    <mirror>\n"
                + "      <id>" + MIRROR_ID + "</id>\n"
                + "      <mirrorOf>*,!" + DEPLOYED_ID + "</mirrorOf>\n"
                + "      <url>" + thisBuildsRepository.toUri() + "</url>\n"
                + "    </mirror>\n"
                + "  </mirrors>\n"
                + "  <profiles>\n"
                + "    <profile>\n"
                + "      <id>" + DEPLOYED_ID + "</id>\n"
                + "      <repositories>\n"
                + "        <repository>\n"
                + "          <id>" + DEPLOYED_ID + "</id>\n"
                + "          <url>" + deployed.toUri() + "</url>\n"
                + "          <releases><checksumPolicy>fail</checksumPolicy></releases>\n"
                + "          <snapshots><enabled>true</enabled><checksumPolicy>fail</checksumPolicy></snapshots>\n"
                + "        </repository>\n"
                + "        <repository><id>central</id><url>" + thisBuildsRepository.toUri() + "</url>" + central
                + "</repository>\n"
                + "      </repositories>\n"
                + "      <pluginRepositories>\n"
                + "        <pluginRepository><id>central</id><url>" + thisBuildsRepository.toUri() + "</url>" + central
                + "</pluginRepository>\n"
                + "      </pluginRepositories>\n"
                + "    </profile>\n"
                + "  </profiles>\n"
                + "  <activeProfiles><activeProfile>" + DEPLOYED_ID + "</activeProfile></activeProfiles>\n"
                + "</settings>\n";
    }

    private static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : paths.filter(path -> !from.relativize(path).startsWith("target"))
                    .collect(Collectors.toList())) {
                Files.copy(path, to.resolve(from.relativize(path).toString()));
            }
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.delete(path);
            }
        }
    }

    /** How the user's build ended, and what it printed. */
    record Result(int exitCode, List<String> output) {
        String tail(int lines) {
            return String.join("\n", output.subList(Math.max(0, output.size() - lines), output.size()));
        }
    }
}
