package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Caller;
import io.dagnats.leases.domain.Principal;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Who sent a request, as the NATS server vouches for it (ADR-036): the edge where
 * {@code Nats-Request-Info} becomes a {@link Caller}, so nothing of NATS reaches the core.
 *
 * <p>With identity mode off every request is {@link Caller#SHARED}. In {@code accounts} mode a
 * request is believed only when it crossed a service import into dagnats' account: it carries
 * the header the server writes there (and overwrites when a client sent one), its {@code acc}
 * is not dagnats' own account (inside which anyone could write the header), and its reply
 * subject is the server's {@code _R_.} one. The last is a second line only: the wall is that
 * nobody in dagnats' account may publish to {@code api.leases.>}.
 */
public sealed interface RequestIdentity {

    /** The header nats-server adds to a request that crosses a service import. */
    String REQUEST_INFO = "Nats-Request-Info";
    /** How the server names the reply subject of a request that crossed a service import. */
    String IMPORTED_REPLY_PREFIX = "_R_.";
    /** How nats-server prefixes a reply routed back over a gateway: then two tokens, then the reply. */
    String GATEWAY_REPLY_PREFIX = "_GR_.";

    RequestIdentity OFF = new Off();

    /**
     * The caller of a request, or why it is refused.
     *
     * @param requestInfo the {@link #REQUEST_INFO} header's value, or null without one
     * @param replyTo     the request's reply subject, or null for a publish
     */
    Identified identify(String requestInfo, String replyTo);

    /** One line for the start-up log: which mode runs. */
    String describe();

    /** The mode, as the bucket records it: a bucket serves one mode (ADR-036, amended). */
    IdentityMode mode();

    /**
     * A warning for the start-up log when this mode cannot trust a server of {@code serverVersion}:
     * before 2.11.15, 2.12.6 and 2.14.0 a leaf node could forge {@link #REQUEST_INFO}
     * (CVE-2026-33246). dagnats cannot see whether leaf nodes connect, so it only warns.
     */
    default Optional<String> warning(String serverVersion) {
        return Optional.empty();
    }

    /** A request's caller, or the sentence it is refused with (kind {@code forbidden}). */
    sealed interface Identified {
        record Known(Caller caller) implements Identified {
        }

        record Refused(String sentence) implements Identified {
        }
    }

    record Off() implements RequestIdentity {
        private static final Identified SHARED = new Identified.Known(Caller.SHARED);

        @Override
        public Identified identify(String requestInfo, String replyTo) {
            return SHARED;
        }

        @Override
        public String describe() {
            return "identity mode off: one shared namespace, holder ids are not checked against callers";
        }

        @Override
        public IdentityMode mode() {
            return IdentityMode.OFF;
        }
    }

    /**
     * @param own       dagnats' own account: its requests are refused
     * @param operators the accounts whose callers may revoke and list across accounts
     */
    record Accounts(Account own, Set<Account> operators) implements RequestIdentity {

        private static final JsonFactory JSON = new JsonFactory();

        public Accounts {
            Objects.requireNonNull(own, "own");
            operators = Set.copyOf(operators);
            if (operators.contains(own)) {
                throw new IllegalArgumentException("dagnats' own account " + own + " cannot be an operator account: "
                        + "its requests carry no header the server vouches for");
            }
        }

        @Override
        public Identified identify(String requestInfo, String replyTo) {
            if (requestInfo == null) {
                return new Identified.Refused("identity mode: the request did not come through a service import "
                        + "(no " + REQUEST_INFO + " header); call dagnats from an application account");
            }
            Optional<Principal> principal = principal(requestInfo);
            if (principal.isEmpty()) {
                return new Identified.Refused("identity mode: the " + REQUEST_INFO
                        + " header names no valid account");
            }
            Account account = principal.get().account();
            if (account.equals(own)) {
                return new Identified.Refused("identity mode: requests from dagnats' own account " + own
                        + " are refused; call dagnats from an application account");
            }
            if (!importedReply(replyTo)) {
                return new Identified.Refused("identity mode: the request did not come through a service import "
                        + "(its reply subject is not the server's)");
            }
            return new Identified.Known(operators.contains(account)
                    ? new Caller.Operator(principal.get()) : new Caller.Member(principal.get()));
        }

        @Override
        public IdentityMode mode() {
            return IdentityMode.ACCOUNTS;
        }

        @Override
        public Optional<String> warning(String serverVersion) {
            ServerVersion version = ServerVersion.parse(serverVersion);
            boolean patched = version.major() > 2 || (version.major() == 2 && (version.minor() >= 14
                    || (version.minor() == 12 && version.patch() >= 6)
                    || (version.minor() == 11 && version.patch() >= 15)));
            return patched ? Optional.empty() : Optional.of("identity mode on nats-server " + serverVersion
                    + ": a leaf node connected to it can forge " + REQUEST_INFO
                    + " (CVE-2026-33246); upgrade to 2.11.15, 2.12.6, 2.14.0 or newer, or connect no leaf nodes");
        }

        @Override
        public String describe() {
            return "identity mode accounts: dagnats' account " + own + ", operator accounts "
                    + (operators.isEmpty() ? "none" : operators.stream().map(Account::value).sorted().toList())
                    + "; callers are known by the server's " + REQUEST_INFO + " header";
        }

        /** The server's {@code _R_.} reply subject, bare or behind a gateway's {@code _GR_.<cluster>.<server>.} (not tested on a supercluster). */
        static boolean importedReply(String replyTo) {
            if (replyTo == null) {
                return false;
            }
            String reply = replyTo;
            if (reply.startsWith(GATEWAY_REPLY_PREFIX)) {
                int cluster = reply.indexOf('.', GATEWAY_REPLY_PREFIX.length());
                int server = cluster < 0 ? -1 : reply.indexOf('.', cluster + 1);
                if (cluster <= GATEWAY_REPLY_PREFIX.length() || server <= cluster + 1) {
                    return false;
                }
                reply = reply.substring(server + 1);
            }
            return reply.startsWith(IMPORTED_REPLY_PREFIX);
        }

        /** The {@code acc} and, when shared, {@code user} of the header's JSON object; empty when it has no valid acc. */
        static Optional<Principal> principal(String requestInfo) {
            String account = null;
            String user = null;
            try (JsonParser parser = JSON.createParser(requestInfo)) {
                if (parser.nextToken() != JsonToken.START_OBJECT) {
                    return Optional.empty();
                }
                for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
                    String name = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if (value == JsonToken.VALUE_STRING && "acc".equals(name)) {
                        account = parser.getText();
                    } else if (value == JsonToken.VALUE_STRING && "user".equals(name)) {
                        user = parser.getText();
                    } else {
                        parser.skipChildren();
                    }
                }
            } catch (IOException | RuntimeException malformed) {
                return Optional.empty();
            }
            if (account == null) {
                return Optional.empty();
            }
            try {
                return Optional.of(new Principal(new Account(account),
                        user == null || user.isEmpty() ? Optional.empty() : Optional.of(user)));
            } catch (IllegalArgumentException invalid) {
                return Optional.empty();
            }
        }
    }
}
