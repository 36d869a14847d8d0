package io.dagnats.leases.bootstrap;

import io.dagnats.leases.adapters.nats.RequestIdentity;
import io.dagnats.leases.domain.Account;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * How callers are known (ADR-036): {@code DAGNATS_IDENTITY} is {@code off} (the default: one shared
 * namespace, exactly the guide) or {@code accounts}, which needs {@code DAGNATS_IDENTITY_ACCOUNT}
 * (dagnats' own account) and takes {@code DAGNATS_IDENTITY_OPERATORS} (operator accounts,
 * comma-separated). The two account settings without the mode are a mistake and stop the start.
 */
record IdentitySettings(RequestIdentity identity) {

    static IdentitySettings from(EnvironmentReader reader) {
        String mode = reader.text("DAGNATS_IDENTITY").orElse("off");
        Optional<String> own = reader.text("DAGNATS_IDENTITY_ACCOUNT");
        Optional<String> operators = reader.text("DAGNATS_IDENTITY_OPERATORS");
        switch (mode) {
            case "off" -> {
                if (own.isPresent() || operators.isPresent()) {
                    throw new IllegalArgumentException("DAGNATS_IDENTITY_ACCOUNT and DAGNATS_IDENTITY_OPERATORS "
                            + "need DAGNATS_IDENTITY=accounts; identity mode is off");
                }
                return new IdentitySettings(RequestIdentity.OFF);
            }
            case "accounts" -> {
                Account account = account("DAGNATS_IDENTITY_ACCOUNT", own.orElseThrow(() -> new IllegalArgumentException(
                        "DAGNATS_IDENTITY=accounts needs DAGNATS_IDENTITY_ACCOUNT, the account dagnats runs in")));
                Set<Account> operatorAccounts = new LinkedHashSet<>();
                for (String name : operators.map(list -> list.split(",")).orElse(new String[0])) {
                    if (!name.isBlank()) {
                        operatorAccounts.add(account("DAGNATS_IDENTITY_OPERATORS", name.strip()));
                    }
                }
                try {
                    return new IdentitySettings(new RequestIdentity.Accounts(account, operatorAccounts));
                } catch (IllegalArgumentException conflict) {
                    throw new IllegalArgumentException("DAGNATS_IDENTITY_OPERATORS: " + conflict.getMessage(), conflict);
                }
            }
            default -> throw new IllegalArgumentException(
                    "DAGNATS_IDENTITY must be off or accounts, not \"" + mode + "\"");
        }
    }

    private static Account account(String setting, String name) {
        try {
            return new Account(name);
        } catch (IllegalArgumentException invalid) {
            throw new IllegalArgumentException(setting + ": \"" + name + "\" is no account name: "
                    + invalid.getMessage(), invalid);
        }
    }
}
