package io.dagnats.leases.application;

/**
 * What the service reports about its own work. Implementations never throw
 * and never block: telemetry must not break or slow a lease request.
 */
public interface LeaseTelemetry {

    /** Reports nothing. */
    LeaseTelemetry NONE = new LeaseTelemetry() {
        @Override
        public void requestHandled(String operation, String outcome, long durationNanos) {
        }

        @Override
        public void leasesSupported(boolean supported) {
        }
    };

    /**
     * One lease request was answered.
     *
     * @param operation     acquire, renew, release, owner
     * @param outcome       granted, held, renewed, released, lost, free, or an error kind
     * @param durationNanos from receipt to reply
     */
    void requestHandled(String operation, String outcome, long durationNanos);

    /** Whether the server can serve leases, as learned at start. */
    void leasesSupported(boolean supported);
}
