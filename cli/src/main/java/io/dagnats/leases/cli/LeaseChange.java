package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseHeaders;
import io.dagnats.leases.protocol.LeaseSubjects;
import io.nats.client.impl.Headers;
import io.nats.client.support.NatsJetStreamConstants;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;

/**
 * One change event ({@code dagnats.lease.changed.<key>}) as the watch reads it
 * from its headers: what happened, to which key, at which revision (the
 * event's stream sequence), and, for a write dagnats made, whose lease and why.
 * An expiry is the server's marker and names nobody: {@link KnownHolders}
 * fills in the holder.
 *
 * @param sequence the event's own revision ({@code Nats-Sequence})
 * @param fence    the fence of the lease concerned: the write's own revision for acquired and
 *                 renewed, the lease that ended for released and revoked (and expired, once known)
 */
record LeaseChange(Instant time, LeaseKey key, Kind kind, long sequence, Optional<HolderId> holder,
        Optional<Fence> fence, Optional<String> reason, Optional<Duration> ttl) {

    enum Kind {
        ACQUIRED, RENEWED, RELEASED, REVOKED, EXPIRED;

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The reason the server writes on the marker that ends a key by its TTL. */
    static final String EXPIRY_MARKER_REASON = "MaxAge";

    /**
     * @param received when this machine received it, used when the event carries no server time
     * @return empty for what is no lease change: another marker (a purge), an event this version
     *         does not know, a subject that is no key, or headers that break the contract
     */
    static Optional<LeaseChange> read(String subject, Headers headers, Instant received) {
        if (headers == null || !subject.startsWith(LeaseSubjects.CHANGED_PREFIX)) {
            return Optional.empty();
        }
        try {
            LeaseKey key = new LeaseKey(subject.substring(LeaseSubjects.CHANGED_PREFIX.length()));
            long sequence = Long.parseLong(headers.getFirst(NatsJetStreamConstants.NATS_SEQUENCE));
            Instant time = time(headers.getFirst(NatsJetStreamConstants.NATS_TIMESTAMP)).orElse(received);
            String event = headers.getFirst(LeaseHeaders.EVENT);
            if (event == null) {
                if (!EXPIRY_MARKER_REASON.equals(headers.getFirst(NatsJetStreamConstants.NATS_MARKER_REASON_HDR))) {
                    return Optional.empty();
                }
                return Optional.of(new LeaseChange(time, key, Kind.EXPIRED, sequence, Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty()));
            }
            Optional<LeaseEvent> known = LeaseEvent.fromWireName(event);
            if (known.isEmpty()) {
                return Optional.empty();
            }
            Kind kind = switch (known.get()) {
                case ACQUIRED -> Kind.ACQUIRED;
                case RENEWED -> Kind.RENEWED;
                case RELEASED -> Kind.RELEASED;
                case REVOKED -> Kind.REVOKED;
            };
            Optional<HolderId> holder = Optional.ofNullable(headers.getFirst(LeaseHeaders.HOLDER)).map(HolderId::new);
            Optional<Fence> fence = kind == Kind.ACQUIRED || kind == Kind.RENEWED
                    ? Optional.of(new Fence(sequence))
                    : LeaseHeaders.parseFence(headers.getFirst(LeaseHeaders.FENCE));
            Optional<Duration> ttl = kind == Kind.ACQUIRED || kind == Kind.RENEWED
                    ? seconds(headers.getFirst(NatsJetStreamConstants.MSG_TTL_HDR))
                    : Optional.empty();
            return Optional.of(new LeaseChange(time, key, kind, sequence, holder, fence,
                    Optional.ofNullable(headers.getFirst(LeaseHeaders.REASON)), ttl));
        } catch (IllegalArgumentException broken) {
            // NumberFormatException and InvalidLeaseInput included: not an event of this contract.
            return Optional.empty();
        }
    }

    /** The same change with the holder and fence of the lease it ended, as remembered. */
    LeaseChange whoseLease(HolderId holder, Fence fence) {
        return new LeaseChange(time, key, kind, sequence, Optional.of(holder), Optional.of(fence), reason, ttl);
    }

    private static Optional<Instant> time(String stamp) {
        try {
            return Optional.ofNullable(stamp).map(Instant::parse);
        } catch (DateTimeParseException unreadable) {
            return Optional.empty();
        }
    }

    /** A {@code Nats-TTL} value: whole seconds, with or without the {@code s}. */
    private static Optional<Duration> seconds(String ttl) {
        if (ttl == null) {
            return Optional.empty();
        }
        String digits = ttl.endsWith("s") ? ttl.substring(0, ttl.length() - 1) : ttl;
        try {
            return Optional.of(Duration.ofSeconds(Long.parseLong(digits)));
        } catch (NumberFormatException otherForm) {
            return Optional.empty();
        }
    }
}
