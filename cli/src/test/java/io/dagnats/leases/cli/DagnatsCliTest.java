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
import org.junit.jupiter.api.Test;

/** Exit codes and the one line on stderr, for what fails before any lease is read. */
class DagnatsCliTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(ConnectionOptions connections, String... args) {
        return DagnatsCli.run(args, new Context(connections, new PrintWriter(out, true), new PrintWriter(err, true),
                Clock.systemUTC(), stop -> { }));
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
        assertTrue(out.toString().contains("Recommended: pass --revision N"), out.toString());
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
