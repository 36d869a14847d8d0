/**
 * The dagnats holder library, as users' services embed it: {@link io.dagnats.leases.holder.LeaseHolder}
 * (keep a lease, join a shard set, follow a key, serve forwards), the handles it gives back
 * ({@link io.dagnats.leases.holder.KeptLease}, {@link io.dagnats.leases.holder.ShardSet},
 * {@link io.dagnats.leases.holder.Following}), the listeners it tells, and
 * {@link io.dagnats.leases.holder.LeaseClient} for plain calls.
 *
 * <p><b>This package is the whole API.</b> Everything under {@code io.dagnats.leases.holder.internal}
 * is the library's own: not an API, and it may change without notice. The line is kept by the
 * build rather than by a {@code module-info.java}: bootstrap's {@code ArchitectureTest} fails when
 * a class outside the holder depends on an internal type, or when a public member of this package
 * names one, and the published javadoc leaves the internal packages out. A module-info was tried
 * and left: inside the Maven reactor, any build that stops before {@code package} (a plain
 * {@code mvn compile} or {@code mvn test}) hands the holder its domain and protocol dependencies as
 * class directories, which have no module name, so the holder would not compile; and every
 * consumer in this repository (acceptance tests, demo, benchmarks) runs on the class path, where
 * a module-info hides nothing.
 */
package io.dagnats.leases.holder;
