package io.dagnats.leases.cli;

import io.dagnats.leases.protocol.LeaseStorage;
import io.nats.client.JetStreamApiException;
import io.nats.client.api.ClusterInfo;
import io.nats.client.api.Replica;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import io.nats.client.api.StreamState;
import io.nats.client.support.NatsKeyValueUtil;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The leases bucket's settings and replicas, from its stream's info (read by
 * the stream leader): what lease safety rests on (docs/wire-protocol.md, "Storage").
 */
record BucketReport(String bucket, String stream, int replicas, Optional<String> leader, List<String> followers,
        long history, boolean messageTtl, Duration markerTtl, String storage, Duration maxAge,
        long messages, long firstSequence, long lastSequence, Optional<Instant> created, Map<String, String> metadata) {

    static final String STREAM = NatsKeyValueUtil.toStreamName(LeaseStorage.BUCKET);

    /** @throws CliFailure when JetStream does not answer or the bucket does not exist */
    static BucketReport read(NatsSession session) {
        StreamInfo info;
        try {
            info = session.connection().jetStreamManagement().getStreamInfo(STREAM);
        } catch (JetStreamApiException refused) {
            throw new CliFailure("cannot read the bucket " + LeaseStorage.BUCKET + " (stream " + STREAM + "): "
                    + refused.getErrorDescription());
        } catch (IOException noAnswer) {
            session.confirmPermitted();
            throw new CliFailure("JetStream did not answer the stream info of " + STREAM + ": " + noAnswer.getMessage());
        }
        return from(info);
    }

    static BucketReport from(StreamInfo info) {
        StreamConfiguration config = info.getConfiguration();
        StreamState state = info.getStreamState();
        ClusterInfo cluster = info.getClusterInfo();
        Optional<String> leader = Optional.ofNullable(cluster).map(ClusterInfo::getLeader);
        List<String> followers = new ArrayList<>();
        if (cluster != null && cluster.getReplicas() != null) {
            for (Replica replica : cluster.getReplicas()) {
                followers.add(replica.getName() + (replica.isOffline() ? " offline"
                        : replica.isCurrent() ? " current" : " behind by " + replica.getLag()));
            }
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        if (config.getMetadata() != null) {
            config.getMetadata().entrySet().stream()
                    .filter(entry -> !entry.getKey().startsWith("_nats."))
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(entry -> metadata.put(entry.getKey(), entry.getValue()));
        }
        return new BucketReport(LeaseStorage.BUCKET, config.getName(), config.getReplicas(), leader, followers,
                config.getMaxMsgsPerSubject(), config.getAllowMessageTtl(),
                Optional.ofNullable(config.getSubjectDeleteMarkerTtl()).orElse(Duration.ZERO),
                config.getStorageType().toString(), Optional.ofNullable(config.getMaxAge()).orElse(Duration.ZERO),
                state.getMsgCount(), state.getFirstSequence(), state.getLastSequence(),
                Optional.ofNullable(info.getCreateTime()).map(time -> time.toInstant()), metadata);
    }

    /** The replicas as one phrase: {@code 3 (leader n1; n2 current, n3 behind by 4)}. */
    String replicasPhrase() {
        StringBuilder phrase = new StringBuilder(Integer.toString(replicas));
        if (leader.isPresent()) {
            phrase.append(" (leader ").append(leader.get());
            if (!followers.isEmpty()) {
                phrase.append("; ").append(String.join(", ", followers));
            }
            phrase.append(')');
        }
        return phrase.toString();
    }
}
