package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The server's publish permission violations, read from the errors it sends the connection. */
class PublishDenialsTest {

    @Test
    void aPublishViolationNamesItsSubject() {
        PublishDenials denials = new PublishDenials();

        assertFalse(denials.read("Permissions Violation for Publish to \"$JS.API.STREAM.UPDATE.KV_leases\""));
        assertTrue(denials.denied("$JS.API.STREAM.UPDATE.KV_leases"));
        assertFalse(denials.denied("$JS.API.STREAM.INFO.KV_leases"));
    }

    @Test
    void theServersQuotedFormIsReadToo() {
        PublishDenials denials = new PublishDenials();

        denials.read("'Permissions Violation for Publish to \"$SYS.REQ.USER.INFO\"'");

        assertTrue(denials.denied("$SYS.REQ.USER.INFO"));
    }

    @Test
    void otherErrorsAndSubscribeViolationsAreNoPublishDenial() {
        PublishDenials denials = new PublishDenials();

        denials.read("Permissions Violation for Subscription to \"api.leases.>\"");
        denials.read("Authorization Violation");
        denials.read(null);

        assertFalse(denials.denied("api.leases.>"));
    }

    @Test
    void aDenialSomeoneExplainsIsLeftToThem() {
        PublishDenials denials = new PublishDenials();
        denials.explainedHere("$JS.API.STREAM.UPDATE.KV_leases");

        assertTrue(denials.read("Permissions Violation for Publish to \"$JS.API.STREAM.UPDATE.KV_leases\""));
        assertFalse(denials.read("Permissions Violation for Publish to \"$KV.leases.k\""));
    }
}
