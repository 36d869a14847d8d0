package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.RevokeReason;
import io.dagnats.leases.domain.Revoker;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine;

/** Arguments parsed into the domain's values: one that breaks a rule is a usage error naming the rule. */
final class Converters {

    private Converters() {
    }

    private static <T> T convert(String value, Function<String, T> parse) {
        try {
            return parse.apply(value);
        } catch (IllegalArgumentException invalid) {
            throw new CommandLine.TypeConversionException(invalid.getMessage());
        }
    }

    static final class Key implements CommandLine.ITypeConverter<LeaseKey> {
        @Override
        public LeaseKey convert(String value) {
            return Converters.convert(value, LeaseKey::new);
        }
    }

    static final class Holder implements CommandLine.ITypeConverter<HolderId> {
        @Override
        public HolderId convert(String value) {
            return Converters.convert(value, HolderId::new);
        }
    }

    static final class Prefix implements CommandLine.ITypeConverter<KeyPrefix> {
        @Override
        public KeyPrefix convert(String value) {
            return Converters.convert(value, KeyPrefix::new);
        }
    }

    static final class AccountName implements CommandLine.ITypeConverter<Account> {
        @Override
        public Account convert(String value) {
            return Converters.convert(value, Account::new);
        }
    }

    static final class By implements CommandLine.ITypeConverter<Revoker> {
        @Override
        public Revoker convert(String value) {
            return Converters.convert(value, Revoker::new);
        }
    }

    static final class Reason implements CommandLine.ITypeConverter<RevokeReason> {
        @Override
        public RevokeReason convert(String value) {
            return Converters.convert(value, RevokeReason::new);
        }
    }

    /** A fence as the wire writes it: an unsigned decimal integer of 1 or more. */
    static final class Revision implements CommandLine.ITypeConverter<Fence> {
        @Override
        public Fence convert(String value) {
            return Converters.convert(value, text -> {
                try {
                    return new Fence(Long.parseUnsignedLong(text));
                } catch (NumberFormatException notANumber) {
                    throw new IllegalArgumentException("revision must be a whole number of 1 or more, not " + text);
                }
            });
        }
    }

    /** A duration as an operator writes it: {@code 15s}, {@code 500ms}, {@code 2m}. */
    static final class Span implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return Converters.convert(value, Span::parse);
        }

        static Duration parse(String text) {
            java.util.regex.Matcher parts = java.util.regex.Pattern.compile("(\\d{1,9})(ms|s|m)").matcher(text);
            if (!parts.matches()) {
                throw new IllegalArgumentException("a duration is a number and ms, s or m (e.g. 15s), not " + text);
            }
            long amount = Long.parseLong(parts.group(1));
            return switch (parts.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                default -> Duration.ofMinutes(amount);
            };
        }
    }
}
