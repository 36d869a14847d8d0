package io.dagnats.leases.adapters.nats;

/**
 * The logger names the adapter has always logged under, kept stable for users' logging settings
 * although the work behind them is now in several classes.
 */
final class LogNames {

    /** The bucket's looks, stamps, grace and fence skips. */
    static final String BUCKET = "io.dagnats.leases.adapters.nats.LeaseBucket";
    /** The store's reads and writes. */
    static final String STORE = "io.dagnats.leases.adapters.nats.NatsLeaseStore";

    private LogNames() {
    }
}
