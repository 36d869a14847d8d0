package io.dagnats.leases.bootstrap;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Which dagnats this is: the Maven project version and, when the build was made
 * from a git checkout, its commit. The build writes both into
 * {@code version.properties} (resource filtering in bootstrap/pom.xml); this is
 * the one place that reads them, for {@code dagnats --version}, the start line,
 * and the version the service publishes in its micro info (which
 * {@code dagnats status} shows). The container image's label takes the same
 * Maven {@code project.version}.
 *
 * @param version the Maven project version, such as {@code 0.1.0} or {@code 0.1.0-SNAPSHOT}
 * @param commit  the abbreviated commit id; empty when the build had no git checkout to read
 */
public record DagnatsVersion(String version, Optional<String> commit) {

    private static final String RESOURCE = "version.properties";
    /** A version for a build whose resources were not filtered (an IDE build that skipped Maven's). */
    static final String UNKNOWN = "0.0.0-unknown";
    /** What git writes for a commit; anything else (a message git printed instead) names none. */
    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{7,40}");

    public DagnatsVersion {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(commit, "commit");
    }

    /** The version of the running build. */
    public static DagnatsVersion current() {
        Properties properties = new Properties();
        try (InputStream in = DagnatsVersion.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException unreadable) {
            throw new UncheckedIOException("cannot read dagnats' " + RESOURCE, unreadable);
        }
        return new DagnatsVersion(filled(properties.getProperty("version")).orElse(UNKNOWN),
                filled(properties.getProperty("commit")).filter(id -> COMMIT.matcher(id).matches()));
    }

    /** A value the build wrote in: a placeholder it left (no git checkout, no filtering) counts as none. */
    private static Optional<String> filled(String value) {
        return Optional.ofNullable(value).map(String::strip).filter(text -> !text.isEmpty() && !text.contains("${"));
    }

    /** {@code 0.1.0 (commit abc1234)}, or only the version when the commit is not known. */
    public String describe() {
        return version + commit.map(id -> " (commit " + id + ")").orElse("");
    }

    /** What {@code dagnats --version} prints: {@code dagnats 0.1.0 (commit abc1234)}. */
    public String line() {
        return "dagnats " + describe();
    }
}
