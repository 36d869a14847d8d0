package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.domain.Account;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Identity mode starts only in the account its configuration names, as the server tells it. */
class ConnectedAccountTest {

    private static final Account DAGNATS = new Account("DAGNATS");
    /** nats-server 2.15.1's answer to $SYS.REQ.USER.INFO for identity.conf's dagnats user (permissions cut). */
    private static final String IN_DAGNATS = "{\"server\":{\"name\":\"N\",\"ver\":\"2.15.1\"},\"data\":{\"user\":\"dagnats\","
            + "\"account\":\"DAGNATS\",\"account_name\":\"DAGNATS\",\"permissions\":{}}}";

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theAccountItsConfigurationNamesPasses() {
        assertEquals(Optional.empty(), ConnectedAccount.judge(DAGNATS, bytes(IN_DAGNATS)));
    }

    @Test
    void anotherAccountIsRefusedNamingBoth() {
        String refusal = ConnectedAccount.judge(new Account("B"), bytes(IN_DAGNATS)).orElseThrow();

        assertTrue(refusal.contains("connection is in account DAGNATS, but DAGNATS_IDENTITY_ACCOUNT is B"), refusal);
        assertTrue(refusal.contains("set DAGNATS_IDENTITY_ACCOUNT=DAGNATS if"), refusal);
    }

    /** The global account of a server without accounts: dagnats shares it with every client. */
    @Test
    void aServerWithoutAccountsIsRefused() {
        String refusal = ConnectedAccount.judge(DAGNATS, bytes("{\"data\":{\"user\":\"\",\"account\":\"$G\","
                + "\"account_name\":\"$G\"}}")).orElseThrow();

        assertTrue(refusal.contains("account $G"), refusal);
    }

    /** Operator mode: the account is its public key, which Nats-Request-Info's acc names too. */
    @Test
    void inOperatorModeTheNameIsNotEnough() {
        String key = "A" + "B".repeat(55);
        String refusal = ConnectedAccount.judge(DAGNATS, bytes("{\"data\":{\"account\":\"" + key
                + "\",\"account_name\":\"DAGNATS\"}}")).orElseThrow();

        assertTrue(refusal.contains("account " + key + " (DAGNATS)"), refusal);
        assertTrue(refusal.contains("DAGNATS_IDENTITY_ACCOUNT=" + key + ", as Nats-Request-Info names accounts"), refusal);
        assertEquals(Optional.empty(), ConnectedAccount.judge(new Account(key), bytes("{\"data\":{\"account\":\""
                + key + "\",\"account_name\":\"DAGNATS\"}}")));
    }

    @Test
    void anAnswerThatNamesNoAccountIsNoProof() {
        for (String answer : new String[] {"", "not json", "{}", "{\"data\":{\"account\":5}}",
                "{\"error\":{\"code\":500,\"description\":\"x\"}}"}) {
            String refusal = ConnectedAccount.judge(DAGNATS, bytes(answer)).orElseThrow();
            assertTrue(refusal.contains("cannot learn which account"), refusal);
            assertFalse(refusal.contains("\n"), refusal);
        }
    }

    @Test
    void withTheModeOffNothingIsAsked() {
        assertEquals(Optional.empty(), ConnectedAccount.startRefusal(null, RequestIdentity.OFF,
                java.time.Duration.ofSeconds(1), new PublishDenials()));
    }
}
