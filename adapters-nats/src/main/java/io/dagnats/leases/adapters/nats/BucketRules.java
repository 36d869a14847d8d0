package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.StoreDurability;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.PersistMode;
import io.nats.client.api.Republish;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The settings of the {@code leases} stream that lease safety rests on, judged
 * one by one. Each answer names the stream setting (as {@code nats stream info}
 * spells it) so an operator knows what to change.
 */
final class BucketRules {

    /** The longest lease a request may ask for; a {@code max_age} below it would cut leases short. */
    static final Duration LONGEST_LEASE = Duration.ofMillis(LeaseTtl.MAX_MILLIS);

    private BucketRules() {
    }

    /**
     * The first setting that makes the stream unsafe for leases, as one sentence; empty when all hold.
     *
     * @param replicas the replicas dagnats is configured with: a bucket with fewer would lose
     *                 acknowledged leases when a server is lost
     */
    static Optional<String> problem(StreamConfiguration stream, int replicas) {
        if (stream.getMirror() != null) {
            return unsafe("is a mirror (mirror is set): its messages are copies, not compare-and-set writes");
        }
        if (stream.getSources() != null && !stream.getSources().isEmpty()) {
            return unsafe("has sources: messages copied in would bypass compare-and-set");
        }
        if (stream.getSealed()) {
            return unsafe("is sealed: it takes no writes");
        }
        if (!stream.getAllowMessageTtl()) {
            return unsafe("has no per-message TTL (allow_msg_ttl is off)");
        }
        if (stream.getMaxMsgsPerSubject() != 1) {
            return unsafe("keeps history " + stream.getMaxMsgsPerSubject()
                    + " (max_msgs_per_subject must be 1, or an expired lease's older write shows through)");
        }
        Duration maxAge = stream.getMaxAge();
        if (maxAge != null && !maxAge.isZero() && maxAge.compareTo(LONGEST_LEASE) < 0) {
            return unsafe("has max_age " + maxAge.toMillis() + " ms, which would end a lease before its TTL"
                    + " (max_age must be 0 or at least " + LONGEST_LEASE.toSeconds() + " s)");
        }
        Duration markers = stream.getSubjectDeleteMarkerTtl();
        if (markers == null || markers.isZero() || markers.isNegative()) {
            return unsafe("has no subject delete markers (subject_delete_marker_ttl is 0)");
        }
        if (stream.getStorageType() != StorageType.File) {
            return unsafe("has storage " + stream.getStorageType()
                    + " (storage must be file: a restart would forget acknowledged leases)");
        }
        if (stream.getReplicas() < replicas) {
            return unsafe("has replicas " + stream.getReplicas() + ", fewer than the " + replicas
                    + " configured (DAGNATS_LEASE_REPLICAS): losing a server could forget acknowledged leases");
        }
        if (stream.getPersistMode() == PersistMode.Async) {
            return unsafe("has persist_mode async (a crash could forget acknowledged leases)");
        }
        if (stream.getRetentionPolicy() != RetentionPolicy.Limits) {
            return unsafe("has retention " + stream.getRetentionPolicy()
                    + " (retention must be limits: consumers must not remove leases)");
        }
        if (stream.getDiscardPolicy() != DiscardPolicy.New) {
            if (stream.getMaxMsgs() > 0) {
                return unsafe("has max_msgs " + stream.getMaxMsgs()
                        + " with discard old (discard must be new, or a full bucket evicts live leases)");
            }
            if (stream.getMaxBytes() > 0) {
                return unsafe("has max_bytes " + stream.getMaxBytes()
                        + " with discard old (discard must be new, or a full bucket evicts live leases)");
            }
        }
        if (stream.isDiscardNewPerSubject()) {
            return unsafe("has discard_new_per_subject on (a held key could never be renewed)");
        }
        if (stream.getNoAck()) {
            return unsafe("has no_ack on (writes are not acknowledged, so no fence can be returned)");
        }
        List<String> subjects = stream.getSubjects();
        if (subjects == null || !subjects.contains(Subjects.KEY_WILDCARD)) {
            return unsafe("has subjects " + subjects + " (subjects must include " + Subjects.KEY_WILDCARD + ")");
        }
        if (stream.getSubjectTransform() != null) {
            return unsafe("has a subject_transform (stored subjects must be the keys written)");
        }
        Republish republish = stream.getRepublish();
        if (republish == null
                || !Subjects.KEY_WILDCARD.equals(republish.getSource())
                || !Subjects.CHANGED_WILDCARD.equals(republish.getDestination())) {
            return unsafe("does not republish " + Subjects.KEY_WILDCARD + " to " + Subjects.CHANGED_WILDCARD
                    + " (republish)");
        }
        if (republish.isHeadersOnly()) {
            return unsafe("republishes headers only (republish headers_only must be off)");
        }
        return Optional.empty();
    }

    private static Optional<String> unsafe(String what) {
        return Optional.of("the bucket " + Subjects.BUCKET + " (stream " + Subjects.STREAM + ") " + what
                + "; fix it, or delete it and let dagnats create it");
    }

    /** The settings of a bucket judged ready, as its status line says them. */
    static String describe(StreamConfiguration configuration, BucketIdentity identity) {
        return "bucket " + Subjects.BUCKET + (identity.fencesNeverRepeat() ? " created by dagnats" : " made elsewhere")
                + ", created " + identity.created()
                + ", first sequence " + identity.firstSequence()
                + ", replicas " + configuration.getReplicas()
                + ", history 1, per-message TTL on"
                + ", expiry markers " + configuration.getSubjectDeleteMarkerTtl().toSeconds() + "s"
                + ", change events on " + Subjects.CHANGED_WILDCARD
                + "; durability: " + new StoreDurability(configuration.getReplicas()).phrase()
                + (identity.fencesNeverRepeat()
                        ? "; its fences start above every earlier bucket's: memory of known leases on"
                        : "; its sequences could repeat an earlier bucket's if it was recreated, so the memory of"
                                + " known leases is off and every call reads the leader first"
                                + " (let dagnats create the bucket to turn it on)");
    }
}
