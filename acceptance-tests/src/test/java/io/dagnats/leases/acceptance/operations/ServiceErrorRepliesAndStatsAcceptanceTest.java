package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.protocol.Answers;
import io.nats.client.Message;
import io.nats.service.EndpointStats;
import io.nats.service.StatsResponse;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Error replies carry the micro headers and the unchanged body, the holder library reads them,
 * and STATS counts every request, every error reply and the time to the reply.
 */
class ServiceErrorRepliesAndStatsAcceptanceTest extends ServiceDiscoveryRequests {

    @Test
    void errorRepliesCarryTheMicroHeadersAndTheUnchangedBody() throws Exception {
        Message invalid = request("api.leases.acquire", "{\"key\":\"k\",\"holder\":\"h\",\"ttl_ms\":1500}");
        assertServiceError(invalid, "invalid", "400");

        String key = "micro-" + UUID.randomUUID();
        long revision = client.acquire(key, "h1", 10_000).path("revision").asLong();
        Message lost = request("api.leases.renew",
                "{\"key\":\"" + key + "\",\"holder\":\"h1\",\"revision\":" + (revision + 1) + "}");
        assertServiceError(lost, "lost", "409");

        Message noOwner = request("api.leases.forward", "{\"key\":\"nobody-" + UUID.randomUUID() + "\",\"payload\":\"\"}");
        assertServiceError(noOwner, "no_owner", "404");

        Message granted = request("api.leases.acquire", "{\"key\":\"micro-" + UUID.randomUUID()
                + "\",\"holder\":\"h1\",\"ttl_ms\":10000}");
        assertFalse(granted.hasHeaders(), "a normal answer carries no headers");
        assertTrue(WireClient.parse(granted).path("granted").asBoolean(), WireClient.parse(granted).toString());
    }

    @Test
    void statsCountEveryRequestAndEveryErrorReplyAndTheTimeToTheReply() throws Exception {
        String id = serviceId();
        StatsResponse before = discovery().stats("dagnats-api", id);
        ZonedDateTime started = before.getStarted();

        String key = "stats-" + UUID.randomUUID();
        assertEquals("invalid", client.call("acquire", "{\"key\":\"" + key + "\",\"holder\":\"h1\",\"ttl_ms\":1500}")
                .path("kind").asText());
        long revision = client.acquire(key, "h1", 10_000).path("revision").asLong();
        assertEquals("lost", client.renew(key, "h1", revision + 1).path("kind").asText());

        StatsResponse after = Polling.until(WAIT, "the renew's time to be counted",
                () -> discovery().stats("dagnats-api", id),
                stats -> endpoint(stats, "renew").getProcessingTime() > endpoint(before, "renew").getProcessingTime());

        EndpointStats acquireBefore = endpoint(before, "acquire");
        EndpointStats acquireAfter = endpoint(after, "acquire");
        assertEquals(acquireBefore.getNumRequests() + 2, acquireAfter.getNumRequests(), acquireAfter.toString());
        assertEquals(acquireBefore.getNumErrors() + 1, acquireAfter.getNumErrors(), acquireAfter.toString());
        assertTrue(acquireAfter.getLastError().startsWith("invalid: "), acquireAfter.toString());
        assertTrue(acquireAfter.getProcessingTime() > acquireBefore.getProcessingTime(), acquireAfter.toString());
        assertTrue(acquireAfter.getAverageProcessingTime() > 0, acquireAfter.toString());

        EndpointStats renewBefore = endpoint(before, "renew");
        EndpointStats renewAfter = endpoint(after, "renew");
        assertEquals(renewBefore.getNumRequests() + 1, renewAfter.getNumRequests(), renewAfter.toString());
        assertEquals(renewBefore.getNumErrors() + 1, renewAfter.getNumErrors(), renewAfter.toString());
        assertTrue(renewAfter.getLastError().startsWith("lost: "), renewAfter.toString());
        assertEquals(renewAfter.getProcessingTime() / renewAfter.getNumRequests(),
                renewAfter.getAverageProcessingTime(), renewAfter.toString());

        assertEquals(started, after.getStarted());
        assertTrue(started.isBefore(ZonedDateTime.now()), started.toString());
        assertEquals("dagnats-leases", acquireAfter.getQueueGroup());
        assertEquals("api.leases.acquire", acquireAfter.getSubject());
    }

    @Test
    void theHolderLibraryReadsErrorRepliesThatCarryTheHeaders() {
        LeaseClient library = new LeaseClient(client.connection());
        LeaseKey key = new LeaseKey("library-" + UUID.randomUUID());
        HolderId holder = new HolderId("h1");
        long revision = client.acquire(key.value(), holder.value(), 10_000).path("revision").asLong();

        assertInstanceOf(Answers.Renew.Lost.class,
                library.renew(key, holder, new Fence(revision + 1), Optional.empty()).join());
        assertInstanceOf(Answers.Release.Lost.class, library.release(key, holder, new Fence(revision + 1)).join());
        Answers.Forward.NotAnswered noOwner = assertInstanceOf(Answers.Forward.NotAnswered.class,
                library.forward(new LeaseKey("nobody-" + UUID.randomUUID()), new byte[0], WAIT).join());
        assertEquals(ErrorKind.NO_OWNER, noOwner.kind());
    }
}
