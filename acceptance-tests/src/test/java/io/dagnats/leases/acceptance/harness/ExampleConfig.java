package io.dagnats.leases.acceptance.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.bootstrap.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The nats-server configurations the docs ship (docs/examples), each run as the docs say on a
 * server of its own, with one user added beside dagnats': {@code admin}, allowed all of JetStream in
 * dagnats' account. It stands in for an operator who copies, deletes or restores the bucket by hand,
 * and reads what a test must see of the stream; dagnats' own user keeps exactly the example's
 * permissions. Holders connect as {@code alice}. Each user's password is its name + {@code -secret}.
 */
public enum ExampleConfig {

    /** docs/examples/least-privilege.conf: one account, identity mode off. */
    LEAST_PRIVILEGE {
        @Override
        public NatsServerProcess start() throws Exception {
            String users = "users = [";
            String config = Files.readString(Path.of(System.getProperty("least.privilege.conf",
                            "../docs/examples/least-privilege.conf")))
                    .replace("{{DAGNATS_PASSWORD}}", "dagnats-secret")
                    .replace("{{ALICE_PASSWORD}}", "alice-secret")
                    .replace("{{OPERATOR_PASSWORD}}", "operator-secret")
                    .replace("{{OUTSIDER_PASSWORD}}", "outsider-secret");
            assertEquals(1, config.split(Pattern.quote(users), -1).length - 1,
                    "the example's one account's user list, as this test expects it");
            return NatsServerProcess.fromConfig(config.replace(users, users + "\n      " + ADMIN));
        }

        @Override
        public Settings dagnats(NatsServerProcess nats, Map<String, String> dagnatsSettings) {
            return IdentityNats.settings(nats, "dagnats", dagnatsSettings);
        }
    },

    /** docs/examples/identity.conf: accounts DAGNATS, A, B and OPS, identity mode on (ADR-036). */
    IDENTITY {
        @Override
        public NatsServerProcess start() throws Exception {
            return IdentityNats.start(ADMIN);
        }

        @Override
        public Settings dagnats(NatsServerProcess nats, Map<String, String> dagnatsSettings) {
            Map<String, String> identityMode = new HashMap<>(dagnatsSettings);
            identityMode.putAll(Map.of("DAGNATS_IDENTITY", "accounts", "DAGNATS_IDENTITY_ACCOUNT", "DAGNATS",
                    "DAGNATS_IDENTITY_OPERATORS", "OPS"));
            return IdentityNats.settings(nats, "dagnats", identityMode);
        }
    };

    private static final String ADMIN = "{ user: admin, password: \"admin-secret\" }";

    /** A server loaded with the example and the admin user, on a free port with its own store. */
    public abstract NatsServerProcess start() throws Exception;

    /** dagnats as the example runs it, connected as its user, with {@code dagnatsSettings} besides. */
    public abstract Settings dagnats(NatsServerProcess nats, Map<String, String> dagnatsSettings);

    /** A caller as the example's holder user (alice). */
    public WireClient holder(NatsServerProcess nats) {
        return new WireClient(IdentityNats.options(nats, "alice").build());
    }

    /** The admin user: all of JetStream in dagnats' account. */
    public WireClient admin(NatsServerProcess nats) {
        return new WireClient(IdentityNats.options(nats, "admin").build());
    }
}
