package io.dagnats.leases.acceptance.operations;

import static io.dagnats.leases.acceptance.harness.WireClient.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.Polling;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.acceptance.harness.WireClient;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.protocol.Answers;
import io.nats.client.Message;
import io.nats.service.Discovery;
import io.nats.service.Endpoint;
import io.nats.service.EndpointStats;
import io.nats.service.InfoResponse;
import io.nats.service.PingResponse;
import io.nats.service.StatsResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The lease subjects are one NATS micro service, discoverable with $SRV: PING,
 * INFO, STATS and SCHEMA, read here with jnats' own Discovery where it parses
 * the replies and raw requests otherwise.
 */
class ServiceDiscoveryAcceptanceTest extends SharedServiceTest {

    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final List<String> ENDPOINTS = List.of("acquire", "renew", "release", "owner", "forward");
    /** The operators' endpoints, after the lease ones. */
    private static final List<String> ADMIN_ENDPOINTS = List.of("list", "revoke");

    private static Discovery discovery() {
        return new Discovery(client.connection(), WAIT.toMillis(), 1);
    }

    private static String serviceId() {
        List<PingResponse> pings = discovery().ping("dagnats-api");
        assertEquals(1, pings.size(), pings.toString());
        return pings.get(0).getId();
    }

    private static Message request(String subject, String body) throws InterruptedException {
        Message reply = client.connection().request(subject, body.getBytes(StandardCharsets.UTF_8), WAIT);
        assertNotNull(reply, "no reply on " + subject);
        return reply;
    }


    private static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> fields = object.fieldNames(); fields.hasNext(); ) {
            names.add(fields.next());
        }
        return names;
    }

    private static EndpointStats endpoint(StatsResponse stats, String name) {
        return stats.getEndpointStatsList().stream().filter(endpoint -> endpoint.getName().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no stats for " + name + ": " + stats));
    }

    @Test
    void infoListsEveryEndpointInTheQueueGroup() throws Exception {
        JsonNode info = WireClient.parse(request("$SRV.INFO.dagnats-api", ""));

        assertEquals("dagnats-api", info.path("name").asText(), info.toString());
        Map<String, String> queueGroups = new TreeMap<>();
        for (JsonNode endpoint : info.path("endpoints")) {
            queueGroups.put(endpoint.path("subject").asText(), endpoint.path("queue_group").asText());
        }
        assertEquals(Map.of(
                "api.leases.acquire", "dagnats-leases",
                "api.leases.renew", "dagnats-leases",
                "api.leases.release", "dagnats-leases",
                "api.leases.owner", "dagnats-leases",
                "api.leases.forward", "dagnats-leases",
                "api.leases.list", "dagnats-leases",
                "api.leases.revoke", "dagnats-leases"), queueGroups);
    }

    @Test
    void pingAnswersWithTheServiceName() throws Exception {
        JsonNode ping = WireClient.parse(request("$SRV.PING.dagnats-api", ""));
        assertEquals("dagnats-api", ping.path("name").asText(), ping.toString());
    }

    @Test
    void infoAndPingCarryTheServiceMetadata() {
        List<InfoResponse> infos = discovery().info("dagnats-api");
        assertEquals(1, infos.size(), infos.toString());
        InfoResponse info = infos.get(0);

        Map<String, String> expected = Map.of(
                "version", BuildVersion.expected(),
                "bucket", "leases",
                "nats_server_version", client.connection().getServerInfo().getVersion(),
                "leases_supported", "true");
        assertEquals(expected, info.getMetadata(), info.toString());
        assertEquals(BuildVersion.expected(), info.getVersion());
        assertFalse(info.getDescription().isBlank(), info.toString());
        assertEquals(expected, discovery().ping("dagnats-api", info.getId()).getMetadata());
    }

    @Test
    void eachEndpointSaysWhatItIsAndNamesItsSchemas() {
        InfoResponse info = discovery().info("dagnats-api").get(0);

        List<String> names = new ArrayList<>();
        for (Endpoint endpoint : info.getEndpoints()) {
            names.add(endpoint.getName());
            Map<String, String> metadata = endpoint.getMetadata();
            assertTrue(List.of("lease", "admin").contains(metadata.get("kind")), endpoint.toString());
            assertFalse(metadata.get("description").isBlank(), endpoint.toString());
            if (ENDPOINTS.contains(endpoint.getName()) || ADMIN_ENDPOINTS.contains(endpoint.getName())) {
                assertEquals(ENDPOINTS.contains(endpoint.getName()) ? "lease" : "admin", metadata.get("kind"),
                        endpoint.toString());
                assertEquals(endpoint.getName() + ".request.json", metadata.get("request_schema"), endpoint.toString());
                assertEquals(endpoint.getName() + ".reply.json", metadata.get("reply_schema"), endpoint.toString());
            }
        }
        assertEquals(ENDPOINTS, names.subList(0, ENDPOINTS.size()));
        assertEquals(ADMIN_ENDPOINTS, names.subList(ENDPOINTS.size(), ENDPOINTS.size() + ADMIN_ENDPOINTS.size()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"PING", "INFO", "STATS", "SCHEMA"})
    void everyVerbAnswersForAllServicesForTheNameAndForTheInstance(String verb) throws Exception {
        String id = serviceId();
        String type = "io.nats.micro.v1." + verb.toLowerCase() + "_response";
        for (String subject : List.of("$SRV." + verb, "$SRV." + verb + ".dagnats-api",
                "$SRV." + verb + ".dagnats-api." + id)) {
            JsonNode reply = WireClient.parse(request(subject, ""));
            assertEquals(type, reply.path("type").asText(), subject + ": " + reply);
            assertEquals(id, reply.path("id").asText(), subject + ": " + reply);
            assertEquals("dagnats-api", reply.path("name").asText(), subject + ": " + reply);
            assertEquals("true", reply.path("metadata").path("leases_supported").asText(), subject + ": " + reply);
        }
    }

    @Test
    void schemaAnswersWithEachEndpointsRequestAndReplySchemas() throws Exception {
        JsonNode schemas = WireClient.parse(request("$SRV.SCHEMA.dagnats-api", ""));

        List<String> withSchemas = new ArrayList<>();
        for (JsonNode endpoint : schemas.path("endpoints")) {
            String name = endpoint.path("name").asText();
            assertEquals("api.leases." + name, endpoint.path("subject").asText(), endpoint.toString());
            assertEquals("dagnats-leases", endpoint.path("queue_group").asText(), endpoint.toString());
            if (endpoint.path("schema").isMissingNode()) {
                continue; // an endpoint that ships no schema is answered without one
            }
            withSchemas.add(name);
            // Schemas travel as strings holding JSON Schema documents.
            assertTrue(endpoint.path("schema").path("request").isTextual(), endpoint.toString());
            JsonNode request = json(endpoint.path("schema").path("request").asText());
            assertEquals("https://json-schema.org/draft/2020-12/schema", request.path("$schema").asText());
            assertFalse(request.path("additionalProperties").asBoolean(true), request.toString());
            JsonNode reply = json(endpoint.path("schema").path("response").asText());
            assertTrue(reply.path("oneOf").isArray(), reply.toString());
            assertTrue(reply.path("$defs").path("error").path("required").toString().contains("\"kind\""),
                    reply.toString());
        }
        assertTrue(withSchemas.containsAll(ENDPOINTS) && withSchemas.containsAll(ADMIN_ENDPOINTS), withSchemas.toString());
    }

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

    private static void assertServiceError(Message reply, String kind, String code) {
        JsonNode body = WireClient.parse(reply);
        assertEquals(List.of("error", "kind"), fieldNames(body), body.toString());
        assertEquals(kind, body.path("kind").asText(), body.toString());
        assertTrue(reply.hasHeaders(), kind + " carries no headers");
        assertFalse(reply.isStatusMessage(), kind + " reads as a status message");
        assertEquals(body.path("error").asText(), reply.getHeaders().getFirst("Nats-Service-Error"), body.toString());
        assertEquals(code, reply.getHeaders().getFirst("Nats-Service-Error-Code"), body.toString());
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
