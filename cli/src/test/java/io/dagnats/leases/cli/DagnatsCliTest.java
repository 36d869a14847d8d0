package io.dagnats.leases.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nats.client.Options;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Exit codes and the one line on stderr, for what fails before any lease is read. */
class DagnatsCliTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(ConnectionOptions connections, String... args) {
        return run(Context.NO_SERVICE, connections, args);
    }

    private int run(ServiceLauncher service, ConnectionOptions connections, String... args) {
        return DagnatsCli.run(args, new Context(connections, new PrintWriter(out, true), new PrintWriter(err, true),
                Clock.systemUTC(), stop -> { }, service));
    }

    /** A service that only counts how often it was asked to serve. */
    private static final class CountingService implements ServiceLauncher {
        final AtomicInteger served = new AtomicInteger();

        @Override
        public String versionLine() {
            return "dagnats 1.2.3 (commit abc1234)";
        }

        @Override
        public List<Setting> settings() {
            return List.of(new Setting("DAGNATS_EXAMPLE_PORT", "a port (default: none)"),
                    new Setting("OTEL_*", "OpenTelemetry, as its SDK reads them"));
        }

        @Override
        public int serve() {
            served.incrementAndGet();
            return 0;
        }
    }

    private static final ConnectionOptions NEVER = server -> {
        throw new AssertionError("a usage error must not connect");
    };

    @Test
    void usageMistakesExitTwoWithoutConnecting() {
        assertEquals(2, run(NEVER, "leases", "get"));
        assertTrue(err.toString().contains("Missing required parameter: 'KEY'"), err.toString());
        assertEquals(2, run(NEVER, "leases", "get", "not a key"));
        assertTrue(err.toString().contains("key may hold only"), err.toString());
        assertEquals(2, run(NEVER, "leases", "revoke", "k"));
        assertTrue(err.toString().contains("--reason"), err.toString());
        assertEquals(2, run(NEVER, "leases", "revoke", "k", "--reason", "x", "--revision", "0"));
        assertEquals(2, run(NEVER, "leases", "ls", "-o", "yaml"));
        assertEquals(2, run(NEVER, "leases", "watch", "k", "--prefix", "p"));
        assertEquals(2, run(NEVER, "leases", "ls", "--page-size", "0"));
        assertEquals(2, run(NEVER, "leases", "watch", "--since", "0"));
        assertEquals(2, run(NEVER, "shards", "--shards", "4"));
        assertTrue(err.toString().contains("--shards needs a SET"), err.toString());
        assertEquals(2, run(NEVER, "shards", "orders", "--shards", "0"));
        assertEquals(2, run(NEVER, "shards", "rvs-member"));
        assertTrue(err.toString().contains("never contains '-member-' or ends with '-member'"), err.toString());
        assertEquals(2, run(NEVER, "lease"));
        assertEquals(2, run(NEVER, "leases"));
        assertEquals(2, run(NEVER, "leases", "hold", "k", "--ttl", "PT15S"));
        assertEquals(2, run(NEVER, "leases", "hold", "k", "--holder", "not an id"));
        assertTrue(err.toString().contains("'--holder': holder may hold only"), err.toString());
        assertEquals(2, run(NEVER, "leases", "hold", "k", "--fence-env", "1X"));
    }

    @Test
    void aMisspeltOptionIsOneLineWithAHintAndExitsTwo() {
        assertEquals(2, run(NEVER, "--verison"));

        assertEquals("dagnats: unknown option '--verison'; did you mean --version? (try: dagnats --help)"
                + System.lineSeparator(), err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void aUsageMistakeInASubcommandHintsAtThatCommandsHelp() {
        assertEquals(2, run(NEVER, "leases", "get"));
        assertEquals("dagnats: Missing required parameter: 'KEY' (try: dagnats leases get --help)"
                + System.lineSeparator(), err.toString());

        err.getBuffer().setLength(0);
        assertEquals(2, run(NEVER, "lease"));
        assertEquals("dagnats: unknown command 'lease'; did you mean leases or serve? (try: dagnats --help)"
                + System.lineSeparator(), err.toString());

        err.getBuffer().setLength(0);
        assertEquals(2, run(NEVER, "status", "extra"));
        assertEquals("dagnats: unexpected argument 'extra' (try: dagnats status --help)" + System.lineSeparator(),
                err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void versionPrintsTheServicesVersionLine() {
        assertEquals(0, run(new CountingService(), NEVER, "--version"));

        assertEquals("dagnats 1.2.3 (commit abc1234)" + System.lineSeparator(), out.toString());
        assertEquals("", err.toString());
    }

    @Test
    void serveAndNoArgumentsAtAllServe() {
        CountingService service = new CountingService();

        assertEquals(0, run(service, NEVER, "serve"));
        assertEquals(0, run(service, NEVER));
        assertEquals(2, run(service, NEVER, "serve", "now"));

        assertEquals(2, service.served.get());
    }

    @Test
    void theHelpOfDagnatsAndOfServeListsTheServicesSettings() {
        assertEquals(0, run(new CountingService(), NEVER, "--help"));
        assertEquals(0, run(new CountingService(), NEVER, "serve", "--help"));

        String help = out.toString();
        assertEquals(2, help.lines().filter(line -> line.startsWith("Settings (environment variables")).count(), help);
        assertTrue(help.lines().anyMatch(line -> line.matches("  DAGNATS_EXAMPLE_PORT\\s+a port \\(default: none\\)")),
                help);
        assertTrue(help.lines().anyMatch(line -> line.matches("  OTEL_\\*\\s+OpenTelemetry, as its SDK reads them")),
                help);
        assertTrue(help.contains("serve"), help);

        out.getBuffer().setLength(0);
        assertEquals(0, run(new CountingService(), NEVER, "leases", "ls", "--help"));
        assertFalse(out.toString().contains("DAGNATS_EXAMPLE_PORT"), "only dagnats and serve list the settings: " + out);
    }

    @Test
    void helpIsNoMistake() {
        assertEquals(0, run(NEVER, "--help"));
        assertEquals(0, run(NEVER, "leases", "watch", "--help"));
        assertTrue(out.toString().contains("--prefix"), out.toString());
        assertTrue(out.toString().contains("--since"), out.toString());
        assertEquals(0, run(NEVER, "shards", "--help"));
        assertTrue(out.toString().contains("stored nowhere"), out.toString());
        assertEquals(0, run(NEVER, "leases", "revoke", "--help"));
        assertTrue(out.toString().contains("Recommended: pass --tenure N"), out.toString());
    }

    @Test
    void aWrongSettingExitsTwoWithOneLine() {
        assertEquals(2, run(server -> {
            throw new IllegalArgumentException("NATS_CREDS names /nope, which is not a readable file");
        }, "leases", "get", "k"));
        assertEquals("dagnats: NATS_CREDS names /nope, which is not a readable file" + System.lineSeparator(),
                err.toString());
    }

    @Test
    void anUnreachableServerExitsOneWithOneLine() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String url = "nats://127.0.0.1:" + port;

        assertEquals(1, run(server -> Options.builder().server(server.orElse("unused")), "leases", "ls", "--server", url));

        assertEquals("dagnats: cannot connect to NATS at " + url + ": no server answered" + System.lineSeparator(),
                err.toString());
        assertFalse(out.toString().contains("lease"), out.toString());
    }
}
