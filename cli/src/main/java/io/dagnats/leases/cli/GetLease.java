package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.LeaseView;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dagnats leases get KEY}: one lease in full (a leader read, {@code api.leases.owner}), or that it is free. */
@Command(name = "get", description = "Show one lease in full (with its tenure, which renewals keep, for revoke "
        + "--tenure), or that its key is free.")
final class GetLease implements Callable<Integer> {

    private final Context context;

    @Mixin
    CommonOptions options;

    @Parameters(paramLabel = "KEY", converter = Converters.Key.class, description = "The lease's key.")
    LeaseKey key;

    @Option(names = "--account", paramLabel = "ACCOUNT", converter = Converters.AccountName.class,
            description = "Identity mode (ADR-036), with an operator account's credentials: the account whose "
                    + "key it is; default the caller's own. Refused with identity mode off.")
    Account account;

    GetLease(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        Answers.Owner answer;
        try (NatsSession session = options.open()) {
            answer = new DagnatsCalls(session).owner(key, Optional.ofNullable(account));
        }
        Instant now = context.clock().instant();
        PrintWriter out = context.out();
        if (answer instanceof Answers.Owner.Held held) {
            LeaseView lease = held.lease();
            if (options.json()) {
                out.println(JsonObjects.text(generator -> {
                    generator.writeBooleanField("held", true);
                    Json.lease(generator, lease, now);
                }));
            } else {
                Table table = new Table("key", lease.key().value())
                        .row("holder", lease.holder().value());
                // Only when the holder sent one, so a plain holder's table keeps its shape.
                lease.incarnation().ifPresent(incarnation -> table.row("incarnation", incarnation.value()));
                table.row("revision", lease.revision().toString())
                        .row("tenure", Human.tenure(lease))
                        .row("acquired", Human.time(lease.acquiredAt())
                                + " (" + Human.span(Duration.between(lease.acquiredAt(), now)) + " ago)")
                        .row("expires", Human.time(lease.expiresAt())
                                + " (in " + Human.timeLeft(Duration.between(now, lease.expiresAt())) + ")")
                        .row("ttl", Human.ttl(lease.ttl()))
                        .print(out);
            }
        } else if (options.json()) {
            out.println(JsonObjects.text(generator -> {
                generator.writeBooleanField("held", false);
                generator.writeStringField("key", key.value());
            }));
        } else {
            out.println(key.value() + " is free");
        }
        return 0;
    }
}
