package io.dagnats.leases.cli;

import io.dagnats.leases.domain.KeyPrefix;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.Answers;
import io.dagnats.leases.protocol.LeaseChange;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.dagnats.leases.protocol.LeaseView;
import io.dagnats.leases.protocol.ListRequest;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.client.impl.Headers;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code dagnats leases watch [KEY | --prefix PREFIX]}: a line per change as it
 * happens (acquired, renewed, released, revoked, expired), until Ctrl-C or
 * SIGTERM, which end it with exit code 0. Events are core NATS messages: a
 * change while the connection is down is missed (the watch says so on stderr).
 */
@Command(name = "watch", description = "Print a line per change as it happens (acquired, renewed, released, "
        + "revoked, expired) until Ctrl-C.")
final class WatchLeases implements Callable<Integer> {

    /** How often the watch looks whether it was asked to stop while no event arrives. */
    private static final Duration POLL = Duration.ofMillis(100);

    private final Context context;

    @Mixin
    CommonOptions options;

    @Parameters(paramLabel = "KEY", arity = "0..1", converter = Converters.Key.class,
            description = "Only this key (default: every key).")
    LeaseKey key;

    @Option(names = "--prefix", paramLabel = "PREFIX", converter = Converters.Prefix.class,
            description = "Only keys that start with it.")
    KeyPrefix prefix;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    WatchLeases(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if (key != null && prefix != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "name a KEY or a --prefix, not both");
        }
        AtomicBoolean stopping = new AtomicBoolean();
        context.stop().onStop(() -> stopping.set(true));
        PrintWriter out = context.out();
        try (NatsSession session = options.connect.openReconnecting()) {
            Subscription events = session.connection().subscribe(
                    key != null ? LeaseSubjects.changed(key) : LeaseSubjects.CHANGED_WILDCARD);
            session.confirmPermitted();
            // Subscribed before listing: a change between the two is in both, and the later write wins.
            KnownHolders holders = listHeld(new DagnatsCalls(session));
            context.err().println("watching " + scope() + " (Ctrl-C to stop)");
            context.err().flush();
            while (!stopping.get() && !out.checkError()) {
                Message message = events.nextMessage(POLL);
                if (message == null) {
                    continue;
                }
                Optional<LeaseChange> change = LeaseChange.read(message.getSubject(), headerOf(message),
                        context.clock().instant()).filter(this::watched).flatMap(holders::explain);
                if (change.isPresent()) {
                    out.println(options.json() ? WatchLines.json(change.get()) : WatchLines.text(change.get()));
                    out.flush();
                }
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private boolean watched(LeaseChange change) {
        return prefix == null || prefix.matches(change.key());
    }

    /**
     * The leases held now, so that an expiry can name its holder. Without them
     * (dagnats not answering) the watch still runs, and says what it cannot do.
     */
    private KnownHolders listHeld(DagnatsCalls calls) {
        try {
            List<LeaseView> held;
            if (key != null) {
                Answers.Owner owner = calls.owner(key);
                held = owner instanceof Answers.Owner.Held lease ? List.of(lease.lease()) : List.of();
            } else {
                held = calls.listAll(prefix == null ? KeyPrefix.ALL : prefix, ListRequest.MAX_PAGE_SIZE);
            }
            KnownHolders holders = new KnownHolders(true);
            held.forEach(holders::held);
            return holders;
        } catch (CliFailure unlisted) {
            context.err().println("dagnats: cannot list the leases held now (" + unlisted.getMessage()
                    + "); an expiry of one of them will not name its holder");
            return new KnownHolders(false);
        }
    }

    private String scope() {
        if (key != null) {
            return "lease " + key;
        }
        return prefix == null || prefix.value().isEmpty() ? "every lease" : "leases with keys starting with " + prefix;
    }

    private static Function<String, String> headerOf(Message message) {
        Headers headers = message.getHeaders();
        return headers == null ? name -> null : headers::getFirst;
    }
}
