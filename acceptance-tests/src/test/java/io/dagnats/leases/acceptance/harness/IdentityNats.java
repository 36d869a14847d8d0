package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.bootstrap.Settings;
import io.nats.client.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The multi-account nats-server of identity mode (ADR-036), started from the shipped
 * docs/examples/identity.conf with its placeholders filled in: accounts DAGNATS, A (its import
 * shares users), B (it does not) and OPS. Each user's password is its name + {@code -secret}.
 */
public final class IdentityNats {

    /** The example's line where a test adds users to dagnats' account (a misconfiguration, or an admin). */
    private static final String DAGNATS_ACCOUNT_ANCHOR = "# dagnats' account holds dagnats and nothing else.";

    private IdentityNats() {
    }

    /** The example, with {@code dagnatsAccountUsers} (user entries of nats-server's config) added to DAGNATS. */
    public static NatsServerProcess start(String dagnatsAccountUsers) throws Exception {
        return start(dagnatsAccountUsers, "\u0000");
    }

    /** The example as {@link #start(String)} makes it, without the lines that allow {@code withheldSubject}. */
    public static NatsServerProcess start(String dagnatsAccountUsers, String withheldSubject) throws Exception {
        // {{PORT}} and {{STORE}} are the server process's own (NatsServerProcess.fromConfig).
        String config = Files.readString(Path.of(System.getProperty("identity.conf", "../docs/examples/identity.conf")))
                .replace("{{DAGNATS_PASSWORD}}", "dagnats-secret")
                .replace("{{ALICE_PASSWORD}}", "alice-secret")
                .replace("{{AMOS_PASSWORD}}", "amos-secret")
                .replace("{{BOB_PASSWORD}}", "bob-secret")
                .replace("{{BEA_PASSWORD}}", "bea-secret")
                .replace("{{OPERATOR_PASSWORD}}", "operator-secret");
        assertTrue(config.contains(DAGNATS_ACCOUNT_ANCHOR), "the example's DAGNATS account lost its anchor line");
        String kept = String.join("\n", config.lines().filter(line -> !line.contains(withheldSubject)).toList());
        return NatsServerProcess.fromConfig(kept.replace(DAGNATS_ACCOUNT_ANCHOR, dagnatsAccountUsers));
    }

    /** dagnats as the example runs it: identity mode, account DAGNATS, operators OPS. */
    public static Settings identityMode(NatsServerProcess nats) {
        return settings(nats, "dagnats", Map.of("DAGNATS_IDENTITY", "accounts", "DAGNATS_IDENTITY_ACCOUNT", "DAGNATS",
                "DAGNATS_IDENTITY_OPERATORS", "OPS"));
    }

    /** dagnats connected as {@code user}, with {@code dagnatsSettings} besides the connection's. */
    public static Settings settings(NatsServerProcess nats, String user, Map<String, String> dagnatsSettings) {
        Map<String, String> environment = new HashMap<>(dagnatsSettings);
        environment.put("NATS_URL", nats.url());
        environment.put("NATS_USER", user);
        environment.put("NATS_PASSWORD", user + "-secret");
        return Settings.fromEnvironment(environment);
    }

    public static Options.Builder options(NatsServerProcess nats, String user) {
        return new Options.Builder().server(nats.url()).userInfo(user, user + "-secret");
    }
}
