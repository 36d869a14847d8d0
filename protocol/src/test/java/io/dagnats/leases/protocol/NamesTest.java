package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The names of the contract, spelled out once more here so a change to one is a visible test change. */
class NamesTest {

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(textBlock = """
            INVALID,           invalid,           false
            FORBIDDEN,         forbidden,         false
            LOST,              lost,              false
            UNSUPPORTED,       unsupported,       false
            UNAVAILABLE,       unavailable,       true
            INTERNAL,          internal,          true
            NO_OWNER,          no_owner,          true
            OWNER_UNAVAILABLE, owner_unavailable, true
            OWNER_REJECTED,    owner_rejected,    true
            OWNER_TIMEOUT,     owner_timeout,     false
            REPLY_TOO_LARGE,   reply_too_large,   false
            NO_SUCCESSOR,      no_successor,      true
            """)
    void eachErrorKindHasOneWireName(ErrorKind kind, String wireName, boolean retryable) {
        assertEquals(wireName, Kinds.wireName(kind));
        assertEquals(Optional.of(kind), Kinds.fromWireName(wireName));
        assertEquals(retryable, kind.retryable());
    }

    @Test
    void anUnknownWireNameIsNoKind() {
        assertEquals(Optional.empty(), Kinds.fromWireName("Lost"));
        assertEquals(12, Arrays.stream(ErrorKind.values()).map(Kinds::wireName).distinct().count());
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource(textBlock = """
            ACQUIRE, acquire, api.leases.acquire
            RENEW,   renew,   api.leases.renew
            RELEASE, release, api.leases.release
            OWNER,   owner,   api.leases.owner
            FORWARD, forward, api.leases.forward
            LIST,    list,    api.leases.list
            REVOKE,  revoke,  api.leases.revoke
            HANDOVER,   handover,   api.leases.handover
            CANDIDATES, candidates, api.leases.candidates
            ATTACH,  attach,  api.leases.attach
            DETACH,  detach,  api.leases.detach
            MOVE,    move,    api.leases.move
            """)
    void eachOperationHasItsEndpointAndSubject(Operation operation, String endpoint, String subject) {
        assertEquals(endpoint, operation.endpointName());
        assertEquals(subject, operation.subject());
    }

    @Test
    void listAndRevokeAreTheOperatorEndpoints() {
        assertEquals(Set.of(Operation.LIST, Operation.REVOKE),
                Arrays.stream(Operation.values()).filter(Operation::isOperator).collect(Collectors.toSet()));
    }

    @Test
    void theServiceAndItsSubjects() {
        LeaseKey key = new LeaseKey("shard-7");
        HolderId holder = new HolderId("worker-1a2b");
        assertEquals("dagnats-api", LeaseSubjects.SERVICE_NAME);
        assertEquals("dagnats-leases", LeaseSubjects.QUEUE_GROUP);
        assertEquals("dagnats.lease.changed.shard-7", LeaseSubjects.changed(key));
        assertEquals("dagnats.lease.changed.>", LeaseSubjects.CHANGED_WILDCARD);
        assertEquals("dagnats.lease.inbox.worker-1a2b.shard-7", LeaseSubjects.inbox(holder, key));
        assertEquals("dagnats.lease.inbox.worker-1a2b.>", LeaseSubjects.inboxes(holder));
        assertEquals("dagnats.lease.candidates.shard-7", LeaseSubjects.candidates(key));
        assertEquals("dagnats.lease.candidate.worker-1a2b.shard-7", LeaseSubjects.candidate(holder, key));
        assertEquals("dagnats.lease.candidate.worker-1a2b.>", LeaseSubjects.candidateChecks(holder));
        assertEquals("shard-7", LeaseSubjects.candidateTail(holder, LeaseSubjects.candidate(holder, key)));
        assertEquals("Dagnats-Lease-From", LeaseHeaders.FROM);
        assertEquals("shard-7", LeaseSubjects.inboxTail(holder, LeaseSubjects.inbox(holder, key)));
        assertThrows(IllegalArgumentException.class,
                () -> LeaseSubjects.inboxTail(holder, "dagnats.lease.inbox.worker-1a2c.shard-7"));
    }

    @Test
    void theHeaders() {
        assertEquals("Dagnats-Lease-Fence", LeaseHeaders.FENCE);
        assertEquals("Dagnats-Lease-Reject", LeaseHeaders.REJECT);
        assertEquals("stale", LeaseHeaders.REJECT_STALE);
        assertEquals("Dagnats-Lease-Event", LeaseHeaders.EVENT);
        assertEquals("Dagnats-Lease-Holder", LeaseHeaders.HOLDER);
        assertEquals("Dagnats-Lease-Reason", LeaseHeaders.REASON);
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(textBlock = """
            ACQUIRED, acquired
            RENEWED,  renewed
            RELEASED, released
            REVOKED,  revoked
            """)
    void eachLeaseEventHasOneHeaderValue(LeaseEvent event, String value) {
        assertEquals(value, event.wireName());
        assertEquals(Optional.of(event), LeaseEvent.fromWireName(value));
    }

    @Test
    void anUnknownEventValueIsNoEvent() {
        assertEquals(Optional.empty(), LeaseEvent.fromWireName("Revoked"));
        assertEquals(Optional.empty(), LeaseEvent.fromWireName(null));
    }
}
