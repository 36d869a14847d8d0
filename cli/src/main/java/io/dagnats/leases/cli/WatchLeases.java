package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Fence;
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
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code dagnats leases watch [KEY | --prefix PREFIX] [--since REV] [--no-renewals]}: a line per change as it
 * happens (acquired, renewed, released, revoked, expired), until Ctrl-C or SIGTERM, which end it
 * with exit code 0. It reads the bucket's stream ({@link BucketStream}) from {@code REV} on, or
 * from the next revision written, and after a reconnect or a nats-server restart goes on from the
 * last revision it printed + 1: no line twice, none the bucket still holds skipped
 * ({@link WatchRules}). A user who may not read the stream gets the change events instead
 * (core NATS: a change while the connection is down is missed, and the watch says so).
 */
@Command(name = "watch", description = {
    "Print a line per change as it happens (acquired, renewed, released, revoked, expired) until Ctrl-C.",
    "It reads the bucket's stream: after a reconnect or a nats-server restart it goes on from the last revision"
            + " it printed, never printing a line twice nor skipping one the bucket still holds. The bucket keeps"
            + " each key's last change only, so a change a later one replaced, and expired or purged ones, are"
            + " gone: the watch says on stderr which revisions it could not print.",
    "A user who may not read the stream (see docs/examples/least-privilege.conf) watches the change events"
            + " instead, which a dropped connection misses."})
final class WatchLeases implements Callable<Integer> {

    /** How often the watch looks whether it was asked to stop while no change arrives. */
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

    @Option(names = "--since", paramLabel = "REV", converter = Converters.Revision.class,
            description = "Print every change from revision REV on that the bucket still holds, then follow"
                    + " (default: from the next change). REV is a line's revision (acquired, renewed) or its seq"
                    + " (released, revoked, expired; JSON: sequence). If the bucket no longer holds REV, one line"
                    + " on stderr names the first revision it holds from there.")
    Fence since;

    @Option(names = "--no-renewals", description = "Ownership changes only (acquired, released, revoked, expired):"
            + " library holders renew every few seconds, and their renewals drown the rest.")
    boolean noRenewals;

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
        if (since != null && since.revision() < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--since is beyond any revision");
        }
        AtomicBoolean stopping = new AtomicBoolean();
        context.stop().onStop(() -> stopping.set(true));
        WatchProgress progress = new WatchProgress(context.err());
        try (NatsSession session = options.connect.openReconnecting(progress::connectivity)) {
            BucketStream.Opening opening = BucketStream.open(session,
                    since == null ? OptionalLong.empty() : OptionalLong.of(since.revision()));
            if (opening instanceof BucketStream.Opening.Reading reading) {
                progress.startAt(reading.start());
                followStream(session, reading.stream(), progress, stopping);
            } else {
                String why = ((BucketStream.Opening.Unreadable) opening).why();
                if (since != null) {
                    throw new CliFailure("--since reads the bucket's stream " + BucketReport.STREAM
                            + ", which this user cannot: " + why);
                }
                context.err().println("dagnats: cannot read the bucket's stream " + BucketReport.STREAM + " (" + why
                        + "); watching the change events instead, which a dropped connection misses");
                progress.followingEvents();
                followEvents(session, stopping);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException closed) {
            throw new CliFailure("the NATS connection closed: " + closed.getMessage());
        }
        return 0;
    }

    /** Prints what {@code first} and the consumers made after a reconnect deliver, closing each when done with it. */
    private void followStream(NatsSession session, BucketStream first, WatchProgress progress, AtomicBoolean stopping)
            throws InterruptedException {
        BucketStream stream = first;
        try {
            KnownHolders holders = listHeld(new DagnatsCalls(session), since == null);
            begun("from revision " + progress.next());
            while (!stopping.get() && !context.out().checkError()) {
                if (progress.takeReopen()) {
                    stream.close();
                    Optional<BucketStream> reopened = reopen(session, progress, stopping);
                    if (reopened.isEmpty()) {
                        return;
                    }
                    stream = reopened.get();
                }
                Optional<BucketStream.Stored> stored = stream.next(POLL);
                if (stored.isPresent() && progress.delivered(stored.get().revision(), stored.get().pending())) {
                    stored.get().change().filter(this::watched).flatMap(holders::explain).ifPresent(this::print);
                }
            }
        } finally {
            stream.close();
        }
    }

    /**
     * A consumer from the revision the watch prints next, made at once when the connection is
     * back: jnats would make its own only after missing three heartbeats, seconds later. Tried
     * every second while JetStream cannot serve it (a restarted server recovering its streams).
     *
     * @return empty when the watch was stopped first
     */
    private Optional<BucketStream> reopen(NatsSession session, WatchProgress progress, AtomicBoolean stopping)
            throws InterruptedException {
        String said = null;
        while (!stopping.get()) {
            BucketStream.Opening opening = BucketStream.open(session, OptionalLong.of(progress.next()));
            if (opening instanceof BucketStream.Opening.Reading reading) {
                return Optional.of(reading.stream());
            }
            String why = ((BucketStream.Opening.Unreadable) opening).why();
            if (!why.equals(said)) {
                context.err().println("dagnats: cannot read the bucket's stream yet (" + why + "); trying again every second");
                context.err().flush();
                said = why;
            }
            for (int waited = 0; waited < 10 && !stopping.get(); waited++) {
                Thread.sleep(POLL.toMillis());
            }
        }
        return Optional.empty();
    }

    /** The change events, core NATS: what arrives while the connection is down is missed. */
    private void followEvents(NatsSession session, AtomicBoolean stopping) throws InterruptedException {
        Subscription events = session.connection().subscribe(
                key != null ? LeaseSubjects.changed(key) : LeaseSubjects.CHANGED_WILDCARD);
        session.confirmPermitted();
        // Subscribed before listing: a change between the two is in both, and the later write wins.
        KnownHolders holders = listHeld(new DagnatsCalls(session), true);
        begun("from its change events");
        while (!stopping.get() && !context.out().checkError()) {
            Message message = events.nextMessage(POLL);
            if (message != null) {
                LeaseChange.read(message.getSubject(), headerOf(message), context.clock().instant())
                        .filter(this::watched).flatMap(holders::explain).ifPresent(this::print);
            }
        }
    }

    private void begun(String from) {
        context.err().println("watching " + scope() + " " + from + (noRenewals ? ", renewals hidden" : "")
                + " (Ctrl-C to stop)");
        context.err().flush();
    }

    /** After {@link KnownHolders#explain}: a hidden renewal still tells whose lease a later expiry ends. */
    private void print(LeaseChange change) {
        if (noRenewals && change.kind() == LeaseChange.Kind.RENEWED) {
            return;
        }
        context.out().println(options.json() ? WatchLines.json(change) : WatchLines.text(change));
        context.out().flush();
    }

    /** The stream holds every key: a watch of one key or a prefix keeps its own. */
    private boolean watched(LeaseChange change) {
        if (key != null) {
            return key.equals(change.key());
        }
        return prefix == null || prefix.matches(change.key());
    }

    /**
     * The leases held now, so that an expiry can name its holder. Without them
     * (dagnats not answering) the watch still runs, and says what it cannot do.
     *
     * @param fromNow whether the watch begins now: a key the listing does not show was free
     *                then. Not so from an earlier revision, where an expiry may end a lease
     *                whose write the bucket no longer holds.
     */
    private KnownHolders listHeld(DagnatsCalls calls, boolean fromNow) {
        try {
            List<LeaseView> held;
            if (key != null) {
                Answers.Owner owner = calls.owner(key);
                held = owner instanceof Answers.Owner.Held lease ? List.of(lease.lease()) : List.of();
            } else {
                held = calls.listAll(prefix == null ? KeyPrefix.ALL : prefix, ListRequest.MAX_PAGE_SIZE);
            }
            KnownHolders holders = new KnownHolders(fromNow);
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
