package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.Candidate;
import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.Request;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dagnats leases candidates KEY}: who waits for a key right now ({@code api.leases.candidates},
 * ADR-042). Asked live, never stored: a process that stopped waiting is not listed, and one that
 * answers late is missed.
 */
@Command(name = "candidates", description = "Who waits for a key right now, asked live (nothing is stored): holder, "
        + "incarnation, priority, version, how long it has waited, and its state (waiting, or owner).")
final class ListCandidates implements Callable<Integer> {

    private final Context context;

    @Mixin
    CommonOptions options;

    @Parameters(paramLabel = "KEY", converter = Converters.Key.class, description = "The lease's key.")
    LeaseKey key;

    @Option(names = "--window", paramLabel = "MS", defaultValue = "250",
            description = "How long dagnats gathers answers, in milliseconds, 10 to 5000 (default: ${DEFAULT-VALUE}).")
    long windowMillis;

    @Option(names = "--account", paramLabel = "ACCOUNT", converter = Converters.AccountName.class,
            description = "Identity mode (ADR-036), with an operator account's credentials: the account whose "
                    + "key it is; default the caller's own. Refused with identity mode off.")
    Account account;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    ListCandidates(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        Duration window = Duration.ofMillis(windowMillis);
        if (window.compareTo(Request.Candidates.MIN_WINDOW) < 0 || window.compareTo(Request.Candidates.MAX_WINDOW) > 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--window must be from "
                    + Request.Candidates.MIN_WINDOW.toMillis() + " to " + Request.Candidates.MAX_WINDOW.toMillis());
        }
        Answers.Candidates answer;
        try (NatsSession session = options.open()) {
            answer = new DagnatsCalls(session).candidates(new Request.Candidates(key, window,
                    Optional.ofNullable(account)));
        }
        PrintWriter out = context.out();
        if (options.json()) {
            out.println(JsonObjects.text(generator -> {
                generator.writeStringField("key", answer.key().value());
                generator.writeArrayFieldStart("candidates");
                for (Candidate candidate : answer.candidates()) {
                    generator.writeStartObject();
                    generator.writeStringField("holder", candidate.holder().value());
                    generator.writeStringField("incarnation", candidate.incarnation().value());
                    generator.writeNumberField("priority", candidate.priority());
                    generator.writeStringField("version", candidate.version());
                    generator.writeNumberField("waited_ms", candidate.waited().toMillis());
                    generator.writeStringField("state", candidate.state().wireName());
                    generator.writeEndObject();
                }
                generator.writeEndArray();
            }));
            return 0;
        }
        if (answer.candidates().isEmpty()) {
            out.println("no candidates for " + key.value() + " answered within " + window.toMillis() + " ms");
            return 0;
        }
        Table table = new Table("HOLDER", "INCARNATION", "PRIORITY", "VERSION", "WAITED", "STATE");
        for (Candidate candidate : answer.candidates()) {
            table.row(candidate.holder().value(), candidate.incarnation().value(), Long.toString(candidate.priority()),
                    candidate.version().isEmpty() ? "-" : candidate.version(), Human.span(candidate.waited()),
                    candidate.state().wireName());
        }
        table.print(out);
        return 0;
    }
}
