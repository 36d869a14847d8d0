package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code dagnats leases ls [PREFIX]}: the held leases, sorted by key, with a
 * count. The listing is the service's snapshot of the bucket, not a leader
 * read per key (docs/wire-protocol.md): a lease may have changed since.
 */
@Command(name = "ls", description = "List the held leases, sorted by key: holder, revision (the fence), "
        + "tenure (which renewals keep; for revoke --tenure), when acquired, time left, TTL, incarnation (- if none).")
final class ListLeases implements Callable<Integer> {

    private final Context context;

    @Mixin
    CommonOptions options;

    @Parameters(paramLabel = "PREFIX", arity = "0..1", converter = Converters.Prefix.class,
            description = "Only keys that start with it (default: every key).")
    KeyPrefix prefix = KeyPrefix.ALL;

    @Option(names = "--page-size", paramLabel = "N", defaultValue = "" + ListRequest.MAX_PAGE_SIZE,
            description = "Leases per request to dagnats, 1 to " + ListRequest.MAX_PAGE_SIZE + " (default: ${DEFAULT-VALUE}).")
    int pageSize;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    ListLeases(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if (pageSize < 1 || pageSize > ListRequest.MAX_PAGE_SIZE) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--page-size must be from 1 to " + ListRequest.MAX_PAGE_SIZE);
        }
        List<LeaseView> leases;
        try (NatsSession session = options.open()) {
            leases = new DagnatsCalls(session).listAll(prefix, pageSize);
        }
        Instant now = context.clock().instant();
        PrintWriter out = context.out();
        if (options.json()) {
            out.println(JsonObjects.text(generator -> {
                generator.writeArrayFieldStart("leases");
                for (LeaseView lease : leases) {
                    generator.writeStartObject();
                    Json.lease(generator, lease, now);
                    generator.writeEndObject();
                }
                generator.writeEndArray();
                generator.writeNumberField("count", leases.size());
            }));
            return 0;
        }
        if (!leases.isEmpty()) {
            Table table = new Table("KEY", "HOLDER", "REVISION", "TENURE", "ACQUIRED", "EXPIRES IN", "TTL",
                    "INCARNATION");
            for (LeaseView lease : leases) {
                // Identity mode: ACCOUNT:KEY, so an operator sees whose each key is (ADR-036).
                table.row(lease.account().map(account -> account + ":").orElse("") + lease.key().value(),
                        lease.holder().value(), lease.revision().toString(), Human.tenure(lease),
                        Human.time(lease.acquiredAt()), Human.timeLeft(Duration.between(now, lease.expiresAt())),
                        Human.ttl(lease.ttl()), lease.incarnation().map(Incarnation::value).orElse("-"));
            }
            table.print(out);
        }
        out.println(Human.count(leases.size(), "lease")
                + (prefix.value().isEmpty() ? "" : " with keys starting with " + prefix.value()));
        return 0;
    }
}
