package io.dagnats.leases.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dagnats serve} (or {@code dagnats} alone): the service itself, configured by the environment only. */
@Command(name = "serve",
        description = {"Serve leases until SIGTERM or SIGINT, then answer the requests in flight and exit 0.",
                "Configured only by the environment variables below, read once at start; "
                        + "a misspelt DAGNATS_ one stops the start with a line that names it."})
final class ServeCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    HelpOption help;

    ServeCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        return context.service().serve();
    }
}
