package io.dagnats.leases.cli;

import java.io.PrintWriter;
import java.time.Clock;

/**
 * What every command is given: how to connect, where to write, the wall clock
 * (for "expires in"), and how a watch learns it must stop.
 */
record Context(ConnectionOptions connections, PrintWriter out, PrintWriter err, Clock clock, StopSignal stop) {
}
