package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Certificates;
import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.RevokeReason;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.holder.ShardListener;
import io.dagnats.leases.holder.ShardSet;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.NKey;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The shipped least-privilege configuration (docs/examples/least-privilege.conf)
 * on a real server (a holder, an operator, an outsider), and the other ways dagnats authenticates: an nkey, and TLS
 * with a private CA and a client certificate.
 */
class PermissionsAcceptanceTest {

    /** Collects the server's permission violations, which arrive asynchronously. */
    private static final class Violations implements ErrorListener {
        final List<String> errors = new CopyOnWriteArrayList<>();

        @Override
        public void errorOccurred(Connection connection, String error) {
            errors.add(error);
        }

        boolean seen(String subject) {
            return errors.stream().anyMatch(error -> error.contains("Permissions Violation") && error.contains(subject));
        }
    }

    private static NatsServerProcess serverWithConfig(String config) throws Exception {
        Path file = Files.createTempFile("nats-", ".conf");
        Files.writeString(file, config);
        return NatsServerProcess.start(NatsServerProcess.binary("nats.server.bin"), false, "-c", file.toString());
    }

    private static Connection connect(String url, String user, String password, Violations violations) throws Exception {
        return Nats.connect(new Options.Builder().server(url).userInfo(user, password).errorListener(violations).build());
    }

    /** The shipped least-privilege configuration, its placeholders filled in for a server of its own. */
    private static String leastPrivilegeConfig() throws Exception {
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

    @Test
    void theLeastPrivilegeConfigurationLetsEachPartyDoItsJobAndNothingElse() throws Exception {
        String config = leastPrivilegeConfig();
        // The test harness picks the port on the command line, which wins over the file's listen line.
        try (NatsServerProcess nats = serverWithConfig(config);
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", nats.url(), "NATS_USER", "dagnats", "NATS_PASSWORD", "d-secret")))) {
            assertInstanceOf(BucketStatus.Ready.class, dagnats.status(), dagnats.status().describe());
            String url = nats.url();
            Violations aliceViolations = new Violations();
            Violations outsiderViolations = new Violations();
            Violations operatorViolations = new Violations();
            try (Connection alice = connect(url, "alice", "a-secret", aliceViolations);
                    Connection outsider = connect(url, "outsider", "o-secret", outsiderViolations);
                    Connection operator = connect(url, "operator", "op-secret", operatorViolations);
                    LeaseHolder holder = LeaseHolder.builder(alice).holderId("alice")
                            .forwardHandler((tenure, payload) -> "alice serves".getBytes(StandardCharsets.UTF_8))
                            .build()) {
                // The holder does its job: acquire, keep, be forwarded to, watch events.
                KeptLease guarded = holder.keep("guarded", Duration.ofSeconds(15), OwnershipListener.NONE);
                Polling.until(Duration.ofSeconds(10), "alice to own guarded", guarded::isOwner, isOwner -> isOwner);
                Answers.Forward forwarded = holder.client().forward(new LeaseKey("guarded"), new byte[0],
                        Duration.ofSeconds(2)).join();
                assertEquals("alice serves", new String(
                        assertInstanceOf(Answers.Forward.Answered.class, forwarded).reply(), StandardCharsets.UTF_8));

                // Alice may not touch the bucket or another holder's inbox.
                alice.subscribe("dagnats.lease.inbox.bob.>");
                alice.publish("$KV.leases.guarded", "{}".getBytes(StandardCharsets.UTF_8));
                alice.publish("$JS.API.STREAM.MSG.GET.KV_leases", "{\"last_by_subj\":\"$KV.leases.guarded\"}".getBytes(StandardCharsets.UTF_8));
                alice.flush(Duration.ofSeconds(5));
                Polling.until(Duration.ofSeconds(5), "alice's violations", () -> aliceViolations.errors,
                        errors -> aliceViolations.seen("dagnats.lease.inbox.bob.>")
                                && aliceViolations.seen("$KV.leases.guarded")
                                && aliceViolations.seen("$JS.API.STREAM.MSG.GET.KV_leases"));

                // The outsider may do nothing at all.
                outsider.publish("api.leases.acquire", "{\"key\":\"guarded\",\"holder\":\"x\",\"ttl_ms\":15000}"
                        .getBytes(StandardCharsets.UTF_8));
                outsider.publish("$JS.API.STREAM.MSG.GET.KV_leases", new byte[0]);
                outsider.publish("$KV.leases.guarded", new byte[0]);
                outsider.subscribe("dagnats.lease.inbox.alice.>");
                outsider.flush(Duration.ofSeconds(5));
                Polling.until(Duration.ofSeconds(5), "the outsider's violations", () -> outsiderViolations.errors,
                        errors -> outsiderViolations.seen("api.leases.acquire")
                                && outsiderViolations.seen("$JS.API.STREAM.MSG.GET.KV_leases")
                                && outsiderViolations.seen("$KV.leases.guarded")
                                && outsiderViolations.seen("dagnats.lease.inbox.alice.>"));

                // Nothing they tried changed the lease.
                Answers.Owner owner = holder.client().owner(new LeaseKey("guarded")).join();
                assertEquals("alice", assertInstanceOf(Answers.Owner.Held.class, owner).lease().holder().value());

                operatorsOnly(holder, alice, aliceViolations, operator, operatorViolations);
            }
        }
    }

    /**
     * A holder's credentials can list (read-only, what shard sets need) but not revoke (its
     * revoke changes nothing); the operator's can do both, and can read what the operator CLI
     * reads, but cannot take a lease.
     */
    private static void operatorsOnly(LeaseHolder holder, Connection alice, Violations aliceViolations,
            Connection operator, Violations operatorViolations) throws Exception {
        LeaseKey key = new LeaseKey("alices-own");
        HolderId aliceId = new HolderId("alice");
        Answers.Acquire acquired = holder.client().acquire(key, aliceId, LeaseTtl.ofSeconds(60)).join();
        Fence fence = assertInstanceOf(Answers.Acquire.Granted.class, acquired).lease().revision();

        byte[] revoke = Requests.encode(new Request.Revoke(key, new RevokeReason("alice tries"), Optional.empty()));
        alice.publish(Operation.REVOKE.subject(), alice.createInbox(), revoke);
        alice.flush(Duration.ofSeconds(5));
        Polling.until(Duration.ofSeconds(5), "alice's violation on revoke", () -> aliceViolations.errors,
                errors -> aliceViolations.seen(Operation.REVOKE.subject()));
        Answers.Listing alicesListing = holder.client().list(ListRequest.first(new KeyPrefix("alices-"), 10)).join();
        assertEquals(List.of(key), alicesListing.leases().stream().map(LeaseView::key).toList());
        assertTrue(!aliceViolations.seen(Operation.LIST.subject()), "alice may list: " + aliceViolations.errors);
        Answers.Owner stillHers = holder.client().owner(key).join();
        assertEquals(fence, assertInstanceOf(Answers.Owner.Held.class, stillHers).lease().revision());

        Answers.Listing listing = Replies.decodeList(operator.request(Operation.LIST.subject(),
                Requests.encode(ListRequest.first(new KeyPrefix("alices-"), 10)), Duration.ofSeconds(5)).getData());
        assertEquals(List.of(key), listing.leases().stream().map(LeaseView::key).toList());
        assertTrue(operator.request("$SRV.PING.dagnats-api", new byte[0], Duration.ofSeconds(5)).getData().length > 0);
        assertTrue(operator.request("$JS.API.STREAM.INFO.KV_leases", new byte[0], Duration.ofSeconds(5)).getData().length > 0);
        Answers.Revoke revoked = Replies.decodeRevoke(operator.request(Operation.REVOKE.subject(),
                Requests.encode(new Request.Revoke(key, new RevokeReason("operator frees it"), Optional.of(fence))),
                Duration.ofSeconds(5)).getData());
        assertEquals(fence, assertInstanceOf(Answers.Revoke.Revoked.class, revoked).revokedRevision());
        assertInstanceOf(Answers.Owner.Free.class, holder.client().owner(key).join());

        operator.publish(Operation.ACQUIRE.subject(), Requests.encode(
                new Request.Acquire(key, new HolderId("operator"), LeaseTtl.ofSeconds(60))));
        operator.flush(Duration.ofSeconds(5));
        Polling.until(Duration.ofSeconds(5), "the operator's violation on acquire", () -> operatorViolations.errors,
                errors -> operatorViolations.seen(Operation.ACQUIRE.subject()));
    }

    /**
     * The operator's credentials read the bucket's stream, so {@code leases watch} begins at a
     * revision and can resume; a holder's cannot, so its watch follows the change events instead,
     * says so, and refuses {@code --since} with one line.
     */
    @Test
    void theOperatorsWatchReadsTheStreamAndAHoldersFollowsTheChangeEvents() throws Exception {
        try (NatsServerProcess nats = serverWithConfig(leastPrivilegeConfig());
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", nats.url(), "NATS_USER", "dagnats", "NATS_PASSWORD", "d-secret")));
                WireClient alice = new WireClient(new Options.Builder().server(nats.url()).userInfo("alice", "a-secret")
                        .build())) {
            List<CompletableFuture<JsonNode>> acquires = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                acquires.add(alice.callAsync("acquire", "{\"key\":\"watched-" + i + "\",\"holder\":\"alice\",\"ttl_ms\":60000}"));
            }
            long first = acquires.stream().map(CompletableFuture::join)
                    .mapToLong(reply -> reply.path("revision").asLong()).min().orElseThrow();
            Map<String, String> asOperator = Map.of("NATS_URL", nats.url(), "NATS_USER", "operator",
                    "NATS_PASSWORD", "op-secret");
            Map<String, String> asAlice = Map.of("NATS_URL", nats.url(), "NATS_USER", "alice", "NATS_PASSWORD", "a-secret");

            try (CliProcess operator = CliProcess.start(asOperator, "leases", "watch", "--since", Long.toString(first),
                    "-o", "json");
                    CliProcess holder = CliProcess.start(asAlice, "leases", "watch", "-o", "json")) {
                operator.awaitOut(Duration.ofSeconds(30), "the operator's 200 lines", out -> out.lines().count() == 200);
                holder.awaitErr(Duration.ofSeconds(30), "the holder's watch to begin", err -> err.contains("watching"));
                alice.acquire("watched-late", "alice", 60_000);
                holder.awaitOut(Duration.ofSeconds(30), "the holder's line", out -> out.contains("watched-late"));
                operator.awaitOut(Duration.ofSeconds(30), "the operator's line", out -> out.contains("watched-late"));

                assertTrue(operator.err().lines().allMatch(line -> line.startsWith("watching every lease from revision")),
                        operator.err());
                assertTrue(holder.err().contains("dagnats: cannot read the bucket's stream KV_leases (permission denied"),
                        holder.err());
                assertTrue(holder.err().contains("watching the change events instead"), holder.err());
            }
            CliProcess.Result refused = CliProcess.run(asAlice, "leases", "watch", "--since", Long.toString(first));
            assertEquals(1, refused.exitCode(), refused.toString());
            assertEquals(1, refused.err().lines().count(), refused.toString());
            assertTrue(refused.err().startsWith("dagnats: --since reads the bucket's stream KV_leases, which this user"
                    + " cannot: permission denied"), refused.toString());
        }
    }

    /**
     * A holder whose credentials may not list (the configuration's comment says to drop
     * {@code api.leases.list} where no replica uses shard sets) sees no other member of a
     * shard set. It must not take every shard as if alone: it takes none, and says why.
     */
    @Test
    void aShardSetWhoseHolderMayNotListTakesNoShard() throws Exception {
        String withoutList = "\"api.leases.owner\", \"api.leases.forward\", \"api.leases.list\"";
        String config = leastPrivilegeConfig();
        assertTrue(config.contains(withoutList), "alice's publish list as the test expects it");
        config = config.replace(withoutList, "\"api.leases.owner\", \"api.leases.forward\"");
        try (NatsServerProcess nats = serverWithConfig(config);
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", nats.url(), "NATS_USER", "dagnats", "NATS_PASSWORD", "d-secret")))) {
            Violations aliceViolations = new Violations();
            try (Connection alice = connect(nats.url(), "alice", "a-secret", aliceViolations);
                    Connection operator = connect(nats.url(), "operator", "op-secret", new Violations());
                    LeaseHolder holder = LeaseHolder.builder(alice).holderId("alice").build();
                    ShardSet set = holder.shards("unlisted", 4, Duration.ofSeconds(3), new ShardListener() {
                        @Override
                        public void shardAssigned(int shard, Tenure tenure) {
                        }

                        @Override
                        public void shardRevoked(int shard, OwnershipListener.StopReason why) {
                        }
                    })) {
                // Three refused listings: the set has decided after each of the first two, a second or more ago.
                Polling.until(Duration.ofSeconds(30), "three refused listings", () -> aliceViolations.errors,
                        errors -> errors.stream().filter(error -> error.contains("Permissions Violation")
                                && error.contains(Operation.LIST.subject())).count() >= 3);

                assertEquals(Set.of(), set.owned(), "a replica that cannot see the set took shards as if alone");
                Answers.Listing shards = Replies.decodeList(operator.request(Operation.LIST.subject(),
                        Requests.encode(ListRequest.first(new KeyPrefix("unlisted-shard-"), 10)),
                        Duration.ofSeconds(5)).getData());
                assertEquals(List.of(), shards.leases(), "no shard key is held on the server");
            }
        }
    }

    @Test
    void anNkeySeedFile() throws Exception {
        NKey user = NKey.createUser(null);
        Path seed = Files.createTempFile("dagnats-", ".nk");
        Files.writeString(seed, new String(user.getSeed()));
        int port = NatsServerProcess.freePort();
        Path store = Files.createTempDirectory("nats-nkey-");
        String config = "listen: 127.0.0.1:" + port + "\njetstream { store_dir: \"" + store + "\" }\n"
                + "authorization { users = [ { nkey: " + new String(user.getPublicKey()) + " } ] }\n";
        try (NatsServerProcess nats = serverWithConfig(config);
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", nats.url(), "NATS_NKEY", seed.toString())))) {
            assertInstanceOf(BucketStatus.Ready.class, dagnats.status(), dagnats.status().describe());
        }
    }

    @Test
    void tlsWithAPrivateCaAndAClientCertificate() throws Exception {
        Certificates certificates = Certificates.issue(Files.createTempDirectory("dagnats-tls-"), "rsa:2048");
        try (NatsServerProcess nats = NatsServerProcess.modern(certificates.serverArguments().toArray(String[]::new));
                DagnatsServer dagnats = DagnatsServer.start(Settings.fromEnvironment(Map.of(
                        "NATS_URL", "tls://127.0.0.1:" + nats.port(),
                        "NATS_CA", certificates.file("ca.pem").toString(),
                        "NATS_CERT", certificates.file("client.pem").toString(),
                        "NATS_KEY", certificates.file("client-key.pem").toString())))) {
            assertInstanceOf(BucketStatus.Ready.class, dagnats.status(), dagnats.status().describe());
        }
    }
}
