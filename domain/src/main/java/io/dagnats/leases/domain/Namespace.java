package io.dagnats.leases.domain;

import java.util.Objects;

/** Which stored keys a listing looks at: identity mode off, one account's, or every account's (ADR-036). */
public sealed interface Namespace {

    Namespace SHARED = new Shared();
    Namespace EVERY = new Every();
    /** Every stored key, of any namespace or none: what the lease gauges count. */
    Namespace ANY = new Any();

    boolean contains(LeaseKey key);

    /** Identity mode off: keys of no account. */
    record Shared() implements Namespace {
        @Override
        public boolean contains(LeaseKey key) {
            return key.account().isEmpty();
        }
    }

    /** One account's keys. */
    record Of(Account account) implements Namespace {
        public Of {
            Objects.requireNonNull(account, "account");
        }

        @Override
        public boolean contains(LeaseKey key) {
            return key.account().filter(account::equals).isPresent();
        }
    }

    /** Every key there is. */
    record Any() implements Namespace {
        @Override
        public boolean contains(LeaseKey key) {
            return true;
        }
    }

    /** Every account's keys: an operator's listing. */
    record Every() implements Namespace {
        @Override
        public boolean contains(LeaseKey key) {
            return key.account().isPresent();
        }
    }
}
