package io.dagnats.leases.acceptance.harness;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * For test classes whose tests share one nats-server and one dagnats (each
 * test using keys of its own): started before the class, stopped after it.
 * Test classes run one at a time, so the static fixture is never shared
 * between two classes at once.
 */
public abstract class SharedServiceTest {

    protected static ServiceFixture service;
    protected static WireClient client;

    @BeforeAll
    static void startService() {
        service = ServiceFixture.start();
        client = service.client;
    }

    @AfterAll
    static void stopService() throws InterruptedException {
        service.close();
    }
}
