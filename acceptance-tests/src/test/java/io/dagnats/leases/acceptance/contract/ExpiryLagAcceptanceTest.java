package io.dagnats.leases.acceptance.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.acceptance.harness.SharedServiceTest;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.holder.LeaseClient;
import io.dagnats.leases.protocol.Answers;
import io.nats.client.Connection;
import io.nats.client.Nats;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How long after a dead holder's advisory expiry ({@code expires_at}) a real server still
 * answers "held by other", with every clock this machine's. The holder library's fallback
 * ({@code LeaseKeeper.fallbackDelay}) believes an expiry that reads as past by less than 2 s
 * for at most 4 answers in a row, and past that takes its own wall clock to run ahead of the
 * server's: this is the premise, checked against the server (found by the review of issue 12).
 */
class ExpiryLagAcceptanceTest extends SharedServiceTest {

    private static final Duration BELIEVED = Duration.ofSeconds(2);
    private static final int ANSWERS_BELIEVED = 4;
    /** About the keeper's own spacing after an expired answer (50 ms plus 0 to 200 ms of jitter). */
    private static final Duration SPACING = Duration.ofMillis(100);

    @Test
    void theServerFreesAnExpiredKeyWellWithinWhatTheFallbackBelieves() throws Exception {
        try (Connection nats = Nats.connect(service.nats.url())) {
            LeaseClient calls = new LeaseClient(nats);
            List<String> late = new ArrayList<>();
            List<Long> lags = new ArrayList<>();
            for (int round = 0; round < 4; round++) {
                LeaseKey key = new LeaseKey("expiry-lag-" + round);
                Instant expiresAt = calls.acquire(key, new HolderId("dead"), new LeaseTtl(1_000)).join()
                        .lease().expiresAt();
                int expiredAnswers = 0;
                while (true) {
                    Answers.Acquire answer = calls.acquire(key, new HolderId("waiter"), new LeaseTtl(1_000)).join();
                    Instant now = Instant.now();
                    if (answer instanceof Answers.Acquire.Granted) {
                        long lag = Duration.between(expiresAt, now).toMillis();
                        lags.add(lag);
                        if (expiredAnswers > ANSWERS_BELIEVED || lag >= BELIEVED.toMillis()) {
                            late.add("round " + round + ": granted " + lag + " ms after expires_at, after "
                                    + expiredAnswers + " 'held by other' answers past it");
                        }
                        break;
                    }
                    if (now.isAfter(expiresAt)) {
                        expiredAnswers++;
                    }
                    Thread.sleep(SPACING.toMillis()); // a request's spacing, as the keeper's fallback spaces them
                }
            }
            assertEquals(List.of(), late, "grant lags after expires_at (ms): " + lags);
        }
    }
}
