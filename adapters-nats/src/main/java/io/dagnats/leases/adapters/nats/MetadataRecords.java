package io.dagnats.leases.adapters.nats;

import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.api.StreamConfiguration;
import java.io.IOException;
import java.util.Objects;

/**
 * Records one of dagnats' keys in the bucket's stream metadata (a grace end, ADR-026 rule 6; the
 * creation stamp, ADR-035), best effort: a failed update is tried again at the next look, and its
 * failure is logged once while it lasts, not at every look. A user that may not update the stream
 * (the server refused its publish to {@code $JS.API.STREAM.UPDATE.KV_leases}) is told so in one line
 * and never tried again in this process: every try would be another permission violation, and a
 * look held up for the JetStream timeout. Used by {@link LeaseBucket}'s looks, one at a time.
 */
final class MetadataRecords {

    private static final System.Logger LOG = System.getLogger(LogNames.BUCKET);

    private final PublishDenials denials;
    /** The failure last logged; null after a success. Only the provisioner thread touches it. */
    private String loggedFailure;
    private boolean deniedLogged;

    MetadataRecords(PublishDenials denials) {
        this.denials = Objects.requireNonNull(denials, "denials");
        // This class says what the denial means; the connection's error listener need not log it too.
        denials.explainedHere(Subjects.STREAM_UPDATE);
    }

    /** Whether an update may be sent at all: not once the server refused this user one. */
    boolean mayUpdate() {
        return !denials.denied(Subjects.STREAM_UPDATE);
    }

    /**
     * Sets {@code key} to {@code value} in the bucket's metadata ({@link BucketStream#recordMetadata}).
     *
     * @param what what the key records, for the log line: "its creation time"
     * @return whether the update was applied
     */
    boolean record(JetStreamManagement management, StreamConfiguration configuration, String key, String value,
            String what) {
        if (!mayUpdate()) {
            return false;
        }
        try {
            BucketStream.recordMetadata(management, configuration, key, value);
            loggedFailure = null;
            return true;
        } catch (IOException | JetStreamApiException | RuntimeException failed) {
            if (interrupted(failed)) {
                Thread.currentThread().interrupt();
                return false; // stopping: nothing an operator must act on
            }
            if (!mayUpdate()) {
                deniedOnce();
            } else if (!String.valueOf(failed.getMessage()).equals(loggedFailure)) {
                loggedFailure = String.valueOf(failed.getMessage());
                LOG.log(System.Logger.Level.WARNING, "dagnats: could not record " + what + " in the leases bucket's"
                        + " metadata (" + key + "; " + loggedFailure + "); trying again at every look, logged again"
                        + " only if the failure changes");
            }
            return false;
        }
    }

    private void deniedOnce() {
        if (deniedLogged) {
            return;
        }
        deniedLogged = true;
        LOG.log(System.Logger.Level.WARNING, "dagnats: its NATS user may not publish to " + Subjects.STREAM_UPDATE
                + ", so it cannot record " + BucketIdentity.CREATED_METADATA + " or " + BucketIdentity.GRANTS_FROM_METADATA
                + " in the leases bucket's metadata: a copy of the bucket's configuration (ADR-035) and a replacement"
                + " that recorded no grace end (ADR-026) are then told apart only by instances that saw the bucket"
                + " before; allow that subject to dagnats' user and restart it to record them (not tried again)");
    }

    private static boolean interrupted(Throwable failed) {
        for (Throwable cause = failed; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException) {
                return true;
            }
        }
        return Thread.currentThread().isInterrupted();
    }
}
