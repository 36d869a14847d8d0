package io.dagnats.leases.acceptance.identity;

import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A nats-server started from a configuration, the shipped least-privilege one above all, and
 * clients of its users whose permission violations are collected. A base class so that the tests,
 * split by the rule they prove, moved without being rewritten.
 */
abstract class LeastPrivilegeServer {

    /** Collects the server's permission violations, which arrive asynchronously. */
    static final class Violations implements ErrorListener {
        final List<String> errors = new CopyOnWriteArrayList<>();

        @Override
        public void errorOccurred(Connection connection, String error) {
            errors.add(error);
        }

        boolean seen(String subject) {
            return errors.stream().anyMatch(error -> error.contains("Permissions Violation") && error.contains(subject));
        }
    }

    static NatsServerProcess serverWithConfig(String config) throws Exception {
        Path file = Files.createTempFile("nats-", ".conf");
        Files.writeString(file, config);
        return NatsServerProcess.start(NatsServerProcess.binary("nats.server.bin"), false, "-c", file.toString());
    }

    static Connection connect(String url, String user, String password, Violations violations) throws Exception {
        return Nats.connect(new Options.Builder().server(url).userInfo(user, password).errorListener(violations).build());
    }

    /** The shipped least-privilege configuration, its placeholders filled in for a server of its own. */
    static String leastPrivilegeConfig() throws Exception {
        int port = NatsServerProcess.freePort();
        Path store = Files.createTempDirectory("nats-perms-");
        return Files.readString(Path.of(System.getProperty("least.privilege.conf",
                        "../docs/examples/least-privilege.conf")))
                .replace("{{PORT}}", Integer.toString(port))
                .replace("{{STORE}}", store.toString())
                .replace("{{DAGNATS_PASSWORD}}", "d-secret")
                .replace("{{ALICE_PASSWORD}}", "a-secret")
                .replace("{{OPERATOR_PASSWORD}}", "op-secret")
                .replace("{{OUTSIDER_PASSWORD}}", "o-secret");
    }
}
