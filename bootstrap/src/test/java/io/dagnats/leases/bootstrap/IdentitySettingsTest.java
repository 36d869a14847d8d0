package io.dagnats.leases.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dagnats.leases.adapters.nats.RequestIdentity;
import io.dagnats.leases.domain.Account;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** DAGNATS_IDENTITY and its two account settings (ADR-036): off by default, strict when on. */
class IdentitySettingsTest {

    @Test
    void identityModeIsOffByDefault() {
        assertEquals(RequestIdentity.OFF, Settings.forUrl("nats://127.0.0.1:4222").identity().identity());
    }

    @Test
    void accountsModeNamesDagnatsAccountAndTheOperatorAccounts() {
        Settings settings = Settings.fromEnvironment(Map.of("DAGNATS_IDENTITY", "accounts",
                "DAGNATS_IDENTITY_ACCOUNT", "DAGNATS", "DAGNATS_IDENTITY_OPERATORS", " OPS, AUDIT ,"));

        assertEquals(new RequestIdentity.Accounts(new Account("DAGNATS"), Set.of(new Account("OPS"), new Account("AUDIT"))),
                settings.identity().identity());
        assertTrue(settings.identity().identity().describe().contains("identity mode accounts"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            DAGNATS_IDENTITY=account                                   | DAGNATS_IDENTITY must be off or accounts, not "account"
            DAGNATS_IDENTITY=accounts                                  | DAGNATS_IDENTITY=accounts needs DAGNATS_IDENTITY_ACCOUNT
            DAGNATS_IDENTITY_ACCOUNT=DAGNATS                           | need DAGNATS_IDENTITY=accounts; identity mode is off
            DAGNATS_IDENTITY_OPERATRS=OPS                              | unknown setting DAGNATS_IDENTITY_OPERATRS
            """)
    void aWrongIdentitySettingStopsTheStartNamingIt(String setting, String sentence) {
        String[] parts = setting.split("=", 2);
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> Settings.fromEnvironment(Map.of(parts[0], parts[1])));
        assertTrue(failure.getMessage().contains(sentence), failure.getMessage());
    }

    @Test
    void anAccountNameMustBeOneTokenAndDagnatsOwnCannotOperate() {
        IllegalArgumentException dotted = assertThrows(IllegalArgumentException.class, () -> Settings.fromEnvironment(Map.of(
                "DAGNATS_IDENTITY", "accounts", "DAGNATS_IDENTITY_ACCOUNT", "DAG.NATS")));
        assertTrue(dotted.getMessage().startsWith("DAGNATS_IDENTITY_ACCOUNT: \"DAG.NATS\" is no account name"),
                dotted.getMessage());
        IllegalArgumentException own = assertThrows(IllegalArgumentException.class, () -> Settings.fromEnvironment(Map.of(
                "DAGNATS_IDENTITY", "accounts", "DAGNATS_IDENTITY_ACCOUNT", "DAGNATS",
                "DAGNATS_IDENTITY_OPERATORS", "DAGNATS")));
        assertTrue(own.getMessage().startsWith("DAGNATS_IDENTITY_OPERATORS: dagnats' own account"), own.getMessage());
    }
}
