package io.dagnats.leases.cli;

import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.Tenure;
import io.dagnats.leases.holder.KeptLease;
import io.dagnats.leases.holder.LeaseHolder;
import io.dagnats.leases.holder.OwnershipListener;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dagnats leases hold KEY [-- command...]}: takes and keeps a lease with the holder library
 * (so the holder's rules hold: owner only after a confirmed grant, stopped a margin before the
 * TTL, fences that only grow), prints a line per change of ownership, and runs the command only
 * while it owns the key ({@link HeldCommand}). Ctrl-C or SIGTERM stop the command and release.
 *
 * <p>The holder tells changes on its own thread; they are queued and acted on here, one at a time,
 * so one command is stopped before the next tenure's starts: never two at once from this process.
 */
@Command(name = "hold", description = {
    "Take a lease and keep it, printing a line per change of ownership, until Ctrl-C (then release).",
    "With -- COMMAND: run it only while owning the key, with the tenure's fence in DAGNATS_FENCE and the key"
            + " in DAGNATS_LEASE_KEY; stop it (SIGTERM to its process group, SIGKILL after --grace) the moment"
            + " ownership ends. If it exits on its own, release the lease and exit with its exit code."})
final class HoldLease implements Callable<Integer> {

    /** How often the loop looks whether the command exited while nothing else happens. */
    private static final long POLL_MILLIS = 100;

    private final Context context;

    @Mixin
    HelpOption help;
    @Mixin
    Connect connect;

    @Parameters(index = "0", paramLabel = "KEY", converter = Converters.Key.class, description = "The lease's key.")
    LeaseKey key;

    @Parameters(index = "1..*", paramLabel = "COMMAND", description = "After --: what to run while owning the key.")
    List<String> command = List.of();

    @Option(names = "--holder", paramLabel = "ID", converter = Converters.Holder.class,
            description = "The holder id (default: HOSTNAME-PID). It must name this process alone.")
    HolderId holder;

    @Option(names = "--ttl", paramLabel = "DURATION", converter = Converters.Span.class, defaultValue = "15s",
            description = "The lease's TTL (default: ${DEFAULT-VALUE}); it is renewed every third of it.")
    Duration ttl;

    @Option(names = "--fence-env", paramLabel = "NAME", defaultValue = "DAGNATS_FENCE",
            description = "The environment variable the command finds its fence in (default: ${DEFAULT-VALUE}).")
    String fenceVariable;

    @Option(names = "--grace", paramLabel = "DURATION", converter = Converters.Span.class, defaultValue = "5s",
            description = "How long a stopped command has after SIGTERM before SIGKILL (default: ${DEFAULT-VALUE}).")
    Duration grace;

    /** What the holder's thread and the stop signal tell the loop. */
    private sealed interface Change {
        record Owner(Tenure tenure) implements Change {
        }

        record NotOwner(OwnershipListener.StopReason reason) implements Change {
        }

        record Stop() implements Change {
        }
    }

    private final BlockingQueue<Change> changes = new LinkedBlockingQueue<>();

    HoldLease(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (!fenceVariable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new CliFailure("--fence-env must be an environment variable name, not " + fenceVariable,
                    CliFailure.USAGE);
        }
        context.stop().onStop(() -> changes.add(new Change.Stop()));
        HeldCommand held = new HeldCommand(command, key, fenceVariable, grace);
        PrintWriter out = context.out();
        try (NatsSession session = connect.openReconnecting(told -> context.err().println(
                told == NatsSession.Connectivity.LOST ? "connection to NATS lost; reconnecting" : "connection back"));
                LeaseHolder leases = LeaseHolder.builder(session.connection()).holderId(holderId()).build()) {
            KeptLease lease = leases.keep(key.value(), ttl, new Queued());
            context.err().println("holding " + key + " as " + lease.holder() + " (ttl " + ttl.toMillis() + " ms)");
            while (true) {
                Change change = changes.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (change instanceof Change.Stop) {
                    held.stop();
                    return 0;
                }
                if (change instanceof Change.Owner owner) {
                    out.println("owner since fence " + owner.tenure().fence());
                    // A NotOwner may be queued behind this already: start only while still the owner.
                    if (!command.isEmpty() && lease.isOwner()) {
                        held.start(owner.tenure());
                    }
                } else if (change instanceof Change.NotOwner notOwner) {
                    held.stop();
                    out.println("not owner: " + notOwner.reason().name().toLowerCase(Locale.ROOT).replace('_', ' '));
                }
                OptionalInt exited = held.exited();
                if (exited.isPresent()) {
                    context.err().println("the command exited " + exited.getAsInt() + "; releasing " + key);
                    return exited.getAsInt();
                }
            }
        } finally {
            held.stop();
        }
    }

    private String holderId() {
        if (holder != null) {
            return holder.value();
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9_-]", "-");
        } catch (UnknownHostException unnamed) {
            host = "host";
        }
        return host + "-" + ProcessHandle.current().pid();
    }

    /** Queues what the holder tells, for the loop: the holder's thread is to be kept quick. */
    private final class Queued implements OwnershipListener {
        @Override
        public void becameOwner(Tenure tenure) {
            changes.add(new Change.Owner(tenure));
        }

        @Override
        public void stoppedOwning(StopReason reason) {
            changes.add(new Change.NotOwner(reason));
        }
    }
}
