package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dagnats.leases.domain.Account;
import io.nats.client.Connection;
import io.nats.client.JetStreamStatusException;
import io.nats.client.Message;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The account dagnats' own connection is in, as the server tells it: checked once at start in
 * identity mode (ADR-036, amended). The mode refuses requests from dagnats' own account because
 * anyone there can write {@code Nats-Request-Info}; that protects only if dagnats runs in the
 * account {@code DAGNATS_IDENTITY_ACCOUNT} names. Connected elsewhere (wrong credentials, an
 * application's account), it would take a forged header from that account's users for any caller,
 * and create the bucket there.
 *
 * <p>nats-server answers {@value #USER_INFO} (2.10 and newer, with its system account) with the
 * asking connection's user and account ({@code data.account}: the configured name, or the public
 * key in operator mode, the same name {@code Nats-Request-Info} gives a caller's {@code acc}). The
 * server INFO a client receives does not name the account. A user not allowed to publish there is
 * refused by the server with a permission violation and no answer.
 */
public final class ConnectedAccount {

    /** The server's own service that tells a connection its user, account and permissions. */
    static final String USER_INFO = "$SYS.REQ.USER.INFO";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ConnectedAccount() {
    }

    /**
     * Why dagnats must not start with {@code identity} on {@code connection}, as one sentence;
     * empty when it runs in the account its configuration names. With the mode off nothing is asked.
     *
     * @param denials the server's permission violations on this connection, which tell a refused
     *                question from an unanswered one
     */
    public static Optional<String> startRefusal(Connection connection, RequestIdentity identity, Duration timeout,
            PublishDenials denials) {
        if (!(identity instanceof RequestIdentity.Accounts accounts)) {
            return Optional.empty();
        }
        denials.explainedHere(USER_INFO); // the refusal below says what the violation means
        Message reply;
        try {
            reply = connection.requestWithTimeout(USER_INFO, new byte[0], timeout)
                    .get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return Optional.of(cannotLearn("dagnats was stopped while asking"));
        } catch (ExecutionException | TimeoutException | RuntimeException noAnswer) {
            Throwable cause = noAnswer instanceof ExecutionException && noAnswer.getCause() != null
                    ? noAnswer.getCause() : noAnswer;
            if (cause instanceof JetStreamStatusException status && status.getStatus().getCode() == 503) {
                return Optional.of(noResponder());
            }
            if (denials.denied(USER_INFO)) {
                return Optional.of(cannotLearn("the server refused its user publishing to " + USER_INFO
                        + " (a permission violation); allow it, as docs/examples/identity.conf does"));
            }
            return Optional.of(cannotLearn("the server did not answer " + USER_INFO + " within " + timeout.toMillis()
                    + " ms (is dagnats' user allowed to publish to it, as in docs/examples/identity.conf?)"));
        }
        if (reply.isStatusMessage()) {
            return Optional.of(reply.getStatus().getCode() == 503 ? noResponder()
                    : cannotLearn("the server answered " + USER_INFO + " with status " + reply.getStatus().getCode()));
        }
        return judge(accounts.own(), reply.getData());
    }

    /** The check itself, on the server's answer to {@value #USER_INFO}. */
    static Optional<String> judge(Account own, byte[] answer) {
        Optional<Connected> connected = read(answer);
        if (connected.isEmpty()) {
            String shown = answer == null ? "" : new String(answer, StandardCharsets.UTF_8);
            return Optional.of(cannotLearn("the server's answer to " + USER_INFO + " names no account: "
                    + (shown.length() > 200 ? shown.substring(0, 200) + "..." : shown).replaceAll("[\\r\\n]", " ")));
        }
        String account = connected.get().account();
        if (account.equals(own.value())) {
            return Optional.empty();
        }
        String hint = connected.get().name().filter(own.value()::equals).isPresent()
                ? "; in operator mode name it by its public key, DAGNATS_IDENTITY_ACCOUNT=" + account
                        + ", as Nats-Request-Info names accounts"
                : "; connect with a user of " + own.value() + ", or set DAGNATS_IDENTITY_ACCOUNT=" + account
                        + " if that account holds dagnats and nothing else";
        return Optional.of("identity mode: dagnats' connection is in account " + account
                + connected.get().name().filter(name -> !name.equals(account)).map(name -> " (" + name + ")").orElse("")
                + ", but DAGNATS_IDENTITY_ACCOUNT is " + own.value() + ": dagnats refuses requests from its own account,"
                + " where anyone can forge Nats-Request-Info, so it must run in the account it refuses" + hint);
    }

    private record Connected(String account, Optional<String> name) {
    }

    private static Optional<Connected> read(byte[] answer) {
        if (answer == null || answer.length == 0) {
            return Optional.empty();
        }
        try {
            JsonNode data = JSON.readTree(answer).path("data");
            JsonNode account = data.path("account");
            if (!account.isTextual() || account.asText().isEmpty()) {
                return Optional.empty();
            }
            JsonNode name = data.path("account_name");
            return Optional.of(new Connected(account.asText(),
                    name.isTextual() && !name.asText().isEmpty() ? Optional.of(name.asText()) : Optional.empty()));
        } catch (IOException notJson) {
            return Optional.empty();
        }
    }

    private static String noResponder() {
        return cannotLearn("the server has no responder for " + USER_INFO
                + " (nats-server 2.10 or newer answers it, unless its system account is off)");
    }

    private static String cannotLearn(String why) {
        return "identity mode: dagnats cannot learn which account its connection is in, so it cannot check that it"
                + " runs in DAGNATS_IDENTITY_ACCOUNT, and does not start: " + Objects.requireNonNull(why);
    }
}
