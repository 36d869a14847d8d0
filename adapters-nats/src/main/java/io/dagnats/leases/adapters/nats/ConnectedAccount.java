package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dagnats.leases.domain.Account;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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
 *
 * <p>Anyone else in the account may subscribe to {@value #USER_INFO} and answer too (the review of
 * F6: a forged {@code {"data":{"account":"B"}}} won the race 5 to 23 times in 200). The server
 * always answers, once; so dagnats asks on an inbox of its own, waits {@link #SECOND_ANSWER} after
 * the first answer, and judges only a lone answer: two or more mean another answerer, and dagnats
 * does not start. An answerer that keeps the server's answer from arriving within the window (by
 * flooding the server) is not caught this way; such a user of dagnats' account can already forge
 * Nats-Request-Info in the client's place, which is why the account must hold dagnats alone.
 */
public final class ConnectedAccount {

    /** The server's own service that tells a connection its user, account and permissions. */
    static final String USER_INFO = "$SYS.REQ.USER.INFO";

    /**
     * How long dagnats waits, after the first answer, for a second one. The server answers each
     * question once; anyone else in the account may subscribe to the subject and answer too, faster
     * or slower, so one answer is believed only when no other came within this window.
     */
    static final Duration SECOND_ANSWER = Duration.ofMillis(500);

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
        List<Message> answers;
        try {
            answers = ask(connection, timeout);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return Optional.of(cannotLearn("dagnats was stopped while asking"));
        } catch (RuntimeException failed) {
            return Optional.of(cannotLearn("asking " + USER_INFO + " failed: " + failed.getMessage()));
        }
        if (answers.isEmpty()) {
            if (denials.denied(USER_INFO)) {
                return Optional.of(cannotLearn("the server refused its user publishing to " + USER_INFO
                        + " (a permission violation); allow it, as docs/examples/identity.conf does"));
            }
            return Optional.of(cannotLearn("the server did not answer " + USER_INFO + " within " + timeout.toMillis()
                    + " ms (is dagnats' user allowed to publish to it, as in docs/examples/identity.conf?)"));
        }
        if (answers.size() > 1) {
            return Optional.of(cannotLearn(answers.size() + " answers came to one question on " + USER_INFO
                    + ", which only the server answers: someone else in the account dagnats is connected in"
                    + " answers that subject; find and remove that subscriber (the account must hold dagnats only)"));
        }
        Message reply = answers.get(0);
        if (reply.isStatusMessage()) {
            return Optional.of(reply.getStatus().getCode() == 503 ? noResponder()
                    : cannotLearn("the server answered " + USER_INFO + " with status " + reply.getStatus().getCode()));
        }
        return judge(accounts.own(), reply.getData());
    }

    /**
     * Every answer to one question on {@value #USER_INFO}, asked on an inbox of this connection's
     * own: the first within {@code timeout}, then every other that comes within {@link #SECOND_ANSWER}.
     */
    private static List<Message> ask(Connection connection, Duration timeout) throws InterruptedException {
        String inbox = connection.createInbox();
        Subscription answers = connection.subscribe(inbox);
        try {
            connection.publish(USER_INFO, inbox, new byte[0]);
            List<Message> got = new ArrayList<>();
            Message first = answers.nextMessage(timeout);
            if (first == null) {
                return got;
            }
            got.add(first);
            long until = System.nanoTime() + SECOND_ANSWER.toNanos();
            for (long left = SECOND_ANSWER.toNanos(); left > 0; left = until - System.nanoTime()) {
                Message another = answers.nextMessage(Duration.ofNanos(left));
                if (another != null) {
                    got.add(another);
                }
            }
            return got;
        } finally {
            answers.unsubscribe();
        }
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
