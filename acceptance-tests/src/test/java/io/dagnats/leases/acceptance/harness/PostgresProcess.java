package io.dagnats.leases.acceptance.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL for one test class: {@code initdb} in a temp directory
 * (trust authentication, no fsync: the data is thrown away), started on a free
 * port of 127.0.0.1 with its unix socket in that directory, stopped and deleted
 * on close.
 *
 * <p>The binaries come from the system property {@code postgresql.bin} (set by
 * scripts/test.sh, which installs PostgreSQL when missing), else Debian's
 * {@code /usr/lib/postgresql/15/bin}. PostgreSQL refuses to run as root, so when
 * the tests do, every PostgreSQL command runs as the user named by
 * {@code postgresql.user} (default {@code postgres}, which Debian's package
 * creates) through {@code runuser}, and the temp directory is handed to that user.
 */
public final class PostgresProcess implements AutoCloseable {

    private static final String DEFAULT_BIN = "/usr/lib/postgresql/15/bin";
    private static final String DATABASE_USER = "dagnats";

    private final Path bin;
    private final String osUser;
    private final Path directory;
    private final int port;

    private PostgresProcess(Path bin, String osUser, Path directory, int port) {
        this.bin = bin;
        this.osUser = osUser;
        this.directory = directory;
        this.port = port;
    }

    public static PostgresProcess start() {
        Path bin = Path.of(binDirectory());
        if (!Files.isExecutable(bin.resolve("initdb")) || !Files.isExecutable(bin.resolve("pg_ctl"))) {
            throw new IllegalStateException("no initdb and pg_ctl in " + bin + " (system property postgresql.bin); "
                    + "run the tests with scripts/test.sh, which installs PostgreSQL");
        }
        String osUser = "root".equals(System.getProperty("user.name"))
                ? System.getProperty("postgresql.user", "postgres") : null;
        try {
            Path directory = Files.createTempDirectory("dagnats-pg-");
            if (osUser != null) {
                Files.setOwner(directory, userNamed(osUser));
            }
            PostgresProcess postgres = new PostgresProcess(bin, osUser, directory, NatsServerProcess.freePort());
            try {
                postgres.initAndStart();
            } catch (RuntimeException failed) {
                postgres.close();
                throw failed;
            }
            return postgres;
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        }
    }

    private static UserPrincipal userNamed(String osUser) throws IOException {
        try {
            return FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(osUser);
        } catch (UserPrincipalNotFoundException missing) {
            throw new IllegalStateException("PostgreSQL will not run as root and there is no user " + osUser
                    + " to run it as: create one, or name another in the system property postgresql.user");
        }
    }

    private static String binDirectory() {
        String named = System.getProperty("postgresql.bin", "");
        return named.isBlank() || named.startsWith("${") ? DEFAULT_BIN : named;
    }

    private void initAndStart() {
        run("initdb", "-D", data(), "-U", DATABASE_USER, "-A", "trust", "-E", "UTF8", "--locale=C",
                "--no-sync", "--no-instructions");
        run("pg_ctl", "-D", data(), "-l", directory.resolve("postgres.log").toString(), "-w", "-t", "30",
                "-o", "-p " + port + " -k " + directory + " -c listen_addresses=127.0.0.1 -c fsync=off", "start");
    }

    private String data() {
        return directory.resolve("data").toString();
    }

    /** A new connection to the {@code postgres} database, as a superuser. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", DATABASE_USER, "");
    }

    private void run(String program, String... arguments) {
        List<String> command = new ArrayList<>();
        if (osUser != null) {
            command.addAll(List.of("runuser", "-u", osUser, "--"));
        }
        command.add(bin.resolve(program).toString());
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output + log());
            }
        } catch (IOException failed) {
            throw new UncheckedIOException(failed);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }

    private String log() throws IOException {
        Path log = directory.resolve("postgres.log");
        return Files.exists(log) ? "\n" + Files.readString(log) : "";
    }

    @Override
    public void close() {
        try {
            if (Files.exists(directory.resolve("data").resolve("postmaster.pid"))) {
                run("pg_ctl", "-D", data(), "-m", "immediate", "-w", "stop");
            }
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException ignored) {
                // a leftover temp directory is harmless
            }
        }
    }
}
