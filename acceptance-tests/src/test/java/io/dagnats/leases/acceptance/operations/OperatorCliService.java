package io.dagnats.leases.acceptance.operations;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.harness.CliProcess;
import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import java.time.Duration;

/**
 * The shared service for the operator CLI's tests, and the CLI run against it. A base class so
 * that the tests, split by what they prove, moved without being rewritten.
 */
abstract class OperatorCliService extends SharedServiceTest {

    static final Duration WATCH_LIMIT = Duration.ofSeconds(30);

    static CliProcess.Result cli(String... args) {
        return CliProcess.run(service.nats.url(), args);
    }

    static long acquired(String key, String holder, long ttlMillis) {
        JsonNode granted = client.acquire(key, holder, ttlMillis);
        assertTrue(granted.path("granted").asBoolean(), granted.toString());
        return granted.path("revision").asLong();
    }
}
