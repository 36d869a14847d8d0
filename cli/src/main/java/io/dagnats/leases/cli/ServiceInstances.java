package io.dagnats.leases.cli;

import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.service.Discovery;
import io.nats.service.EndpointStats;
import io.nats.service.InfoResponse;
import io.nats.service.StatsResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The {@code dagnats-api} instances micro discovery finds ({@code $SRV.INFO}, {@code $SRV.STATS}). */
final class ServiceInstances {

    /** How long discovery collects answers: every instance on a healthy system answers well within it. */
    static final Duration WINDOW = Duration.ofSeconds(1);

    /**
     * One instance as it describes itself.
     *
     * @param metadata what the instance publishes (dagnats: nats_server_version, leases_supported...)
     * @param started  empty when its stats did not answer
     */
    record Instance(String id, String version, Map<String, String> metadata, Optional<Instant> started,
            long requests, long errors) {

        Optional<String> metadata(String name) {
            return Optional.ofNullable(metadata.get(name)).filter(value -> !value.isBlank());
        }
    }

    private ServiceInstances() {
    }

    /** Every instance that answered within {@link #WINDOW}, sorted by id; empty when none did. */
    static List<Instance> discover(NatsSession session) {
        Discovery discovery = new Discovery(session.connection(), WINDOW.toMillis(), 10_000);
        List<InfoResponse> infos = discovery.info(LeaseSubjects.SERVICE_NAME);
        session.confirmPermitted();
        List<Instance> instances = new ArrayList<>();
        for (InfoResponse info : infos) {
            StatsResponse stats = discovery.stats(LeaseSubjects.SERVICE_NAME, info.getId());
            long requests = 0;
            long errors = 0;
            Optional<Instant> started = Optional.empty();
            if (stats != null) {
                for (EndpointStats endpoint : stats.getEndpointStatsList()) {
                    requests += endpoint.getNumRequests();
                    errors += endpoint.getNumErrors();
                }
                started = Optional.ofNullable(stats.getStarted()).map(time -> time.toInstant());
            }
            Map<String, String> metadata = info.getMetadata() == null ? Map.of() : Map.copyOf(info.getMetadata());
            instances.add(new Instance(info.getId(), info.getVersion(), metadata, started, requests, errors));
        }
        instances.sort(Comparator.comparing(Instance::id));
        return instances;
    }
}
