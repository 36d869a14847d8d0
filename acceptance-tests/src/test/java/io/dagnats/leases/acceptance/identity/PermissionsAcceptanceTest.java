package io.dagnats.leases.acceptance.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.NatsServerProcess;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.adapters.nats.BucketStatus;
import io.dagnats.leases.bootstrap.DagnatsServer;
import io.dagnats.leases.bootstrap.Settings;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.RevokeReason;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import io.dagnats.leases.protocol.Operation;
import io.dagnats.leases.protocol.Replies;
import io.dagnats.leases.protocol.Request;
import io.dagnats.leases.protocol.Requests;
import io.nats.client.Connection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The shipped least-privilege configuration (docs/examples/least-privilege.conf)
 * on a real server: a holder, an operator and an outsider each do their job and nothing else.
 */
class PermissionsAcceptanceTest extends LeastPrivilegeServer {

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
}
