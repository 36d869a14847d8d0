package io.dagnats.leases.adapters.http;

/** Where {@code /readyz} learns the service's {@link Readiness}: asked once per probe, on an HTTP thread. */
@FunctionalInterface
public interface ReadinessSource {

    /**
     * The readiness now, from state the service keeps anyway; never blocks on I/O.
     *
     * @throws RuntimeException only for a bug, which the probe answers as not ready
     */
    Readiness now();
}
