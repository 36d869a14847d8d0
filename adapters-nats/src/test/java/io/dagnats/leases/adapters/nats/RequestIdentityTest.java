package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Caller;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Principal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How the NATS edge knows a caller in identity mode (ADR-036), and how keys and principals are stored. */
class RequestIdentityTest {

    private static final RequestIdentity ACCOUNTS =
            new RequestIdentity.Accounts(new Account("DAGNATS"), Set.of(new Account("OPS")));
    private static final String IMPORTED = "_R_.nup6Co.J4lM3g";

    private static Caller known(RequestIdentity.Identified identified) {
        return assertInstanceOf(RequestIdentity.Identified.Known.class, identified).caller();
    }

    private static String refused(RequestIdentity.Identified identified) {
        return assertInstanceOf(RequestIdentity.Identified.Refused.class, identified).sentence();
    }

    @Test
    void withTheModeOffEveryRequestIsTheSharedCallerWhateverItsHeaders() {
        assertEquals(Caller.SHARED, known(RequestIdentity.OFF.identify(null, "_INBOX.x")));
        assertEquals(Caller.SHARED, known(RequestIdentity.OFF.identify("{\"acc\":\"A\"}", IMPORTED)));
    }

    @Test
    void aSharedImportNamesAccountAndUser() {
        String header = "{\"start\":\"2026-12-01T21:18:12.33Z\",\"host\":\"127.0.0.1\",\"id\":9,\"acc\":\"A\","
                + "\"user\":\"alice\",\"lang\":\"java\",\"rtt\":190322871,\"tags\":[\"x\"],\"kind\":\"Client\"}";

        assertEquals(new Caller.Member(Principal.of(new Account("A"), "alice")), known(ACCOUNTS.identify(header, IMPORTED)));
    }

    @Test
    void anImportWithoutShareNamesTheAccountOnly() {
        assertEquals(new Caller.Member(Principal.of(new Account("B"))),
                known(ACCOUNTS.identify("{\"acc\":\"B\",\"rtt\":5557911}", IMPORTED)));
    }

    @Test
    void anOperatorAccountsCallerIsAnOperator() {
        assertInstanceOf(Caller.Operator.class, known(ACCOUNTS.identify("{\"acc\":\"OPS\",\"user\":\"ops\"}", IMPORTED)));
    }

    @Test
    void aRequestWithoutTheHeaderIsRefused() {
        assertTrue(refused(ACCOUNTS.identify(null, IMPORTED)).contains("no Nats-Request-Info header"));
    }

    @Test
    void aRequestFromDagnatsOwnAccountIsRefused() {
        assertTrue(refused(ACCOUNTS.identify("{\"acc\":\"DAGNATS\"}", IMPORTED)).contains("dagnats' own account"));
    }

    @Test
    void aForgedHeaderWithAnOrdinaryReplySubjectIsRefused() {
        assertTrue(refused(ACCOUNTS.identify("{\"acc\":\"A\",\"user\":\"alice\"}", "_INBOX.abc.def"))
                .contains("reply subject"));
        assertTrue(refused(ACCOUNTS.identify("{\"acc\":\"A\"}", null)).contains("reply subject"));
    }

    @Test
    void aRequestThatCrossedAGatewayKeepsTheServersReplySubjectBehindTheGatewayPrefix() {
        assertEquals(new Caller.Member(Principal.of(new Account("B"))),
                known(ACCOUNTS.identify("{\"acc\":\"B\"}", "_GR_.c1h4sh.s3rv3r._R_.nup6Co.J4lM3g")));
        refused(ACCOUNTS.identify("{\"acc\":\"B\"}", "_GR_.c1h4sh.s3rv3r._INBOX.abc"));
        refused(ACCOUNTS.identify("{\"acc\":\"B\"}", "_GR_._R_.x"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not json", "[]", "{}", "{\"acc\":7}", "{\"acc\":\"a.b\"}", "{\"acc\":\"\"}",
        "{\"acc\":\"A\",\"user\":\"tab\\there\"}", "{\"acc\":\"A\""})
    void aHeaderWithoutAValidAccountIsRefused(String header) {
        refused(ACCOUNTS.identify(header, IMPORTED));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2.11.14", "2.12.5", "2.13.9", "2.10.20"})
    void identityModeWarnsOnAServerWhoseLeafNodesCanForgeTheHeader(String version) {
        assertTrue(ACCOUNTS.warning(version).orElseThrow().contains("CVE-2026-33246"));
        assertEquals(Optional.empty(), RequestIdentity.OFF.warning(version));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2.11.15", "2.12.6", "2.14.0", "2.15.1", "v2.15.1"})
    void aPatchedServerGetsNoWarning(String version) {
        assertEquals(Optional.empty(), ACCOUNTS.warning(version));
    }

    @Test
    void dagnatsOwnAccountCannotBeAnOperatorAccount() {
        assertThrows(IllegalArgumentException.class,
                () -> new RequestIdentity.Accounts(new Account("DAGNATS"), Set.of(new Account("DAGNATS"))));
    }

    @Test
    void anAccountsKeyIsStoredUnderItsAccountToken() {
        LeaseKey key = LeaseKey.in(new Account("A"), "leader");

        assertEquals("$KV.leases.A.leader", Subjects.keySubject(key));
        assertEquals(Optional.of(key), Subjects.keyOf("$KV.leases.A.leader"));
        assertEquals(Optional.of(new LeaseKey("leader")), Subjects.keyOf("$KV.leases.leader"));
        assertEquals(Optional.empty(), Subjects.keyOf("$KV.leases.A.b.c"));
        assertEquals("$KV.leases.leader", Subjects.keySubject(new LeaseKey("leader")));
    }

    @Test
    void theRecordKeepsThePrincipalAndARecordNamingAnotherAccountIsUnreadable() throws Exception {
        JsonFactory json = new JsonFactory();
        Principal alice = Principal.of(new Account("A"), "alice");
        LeaseKey key = LeaseKey.in(new Account("A"), "leader");
        Instant now = Instant.parse("2026-12-01T12:00:00Z");
        byte[] record = LeaseRecord.encode(new LeaseWrite.Put(key, 0, LeaseEvent.ACQUIRED,
                new Claimant(new HolderId("w"), Optional.empty(), Optional.of(alice)), now, now,
                LeaseTtl.ofSeconds(15), Optional.empty()));

        Lease lease = LeaseRecord.decode(json, key, new StoredMessage(9, "$KV.leases.A.leader", now, Map.of(), record));
        assertEquals(Optional.of(alice), lease.principal());
        assertEquals(new Fence(9), lease.revision());

        LeaseKey keyOfB = LeaseKey.in(new Account("B"), "leader");
        assertThrows(LeaseRecord.UnreadableRecord.class, () -> LeaseRecord.decode(json, keyOfB,
                new StoredMessage(9, "$KV.leases.B.leader", now, Map.of(), record)));
        String plain = new String(record, StandardCharsets.UTF_8);
        assertTrue(plain.contains("\"account\":\"A\"") && plain.contains("\"user\":\"alice\""), plain);
    }
}
