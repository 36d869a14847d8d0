package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * One change event ({@code dagnats.lease.changed.<key>}) as a subscriber reads
 * it from its headers: what happened, to which key, at which revision (the
 * event's stream sequence), and, for a write dagnats made, whose lease and why.
 * An expiry is the server's marker and names nobody (a watcher that saw the
 * lease before fills the holder in with {@link #whoseLease}). Read by the
 * operator CLI's watch and by the holder library.
 *
 * @param sequence the event's own revision ({@code Nats-Sequence})
 * @param fence    the fence of the lease concerned: the write's own revision for acquired,
 *                 renewed and handed-over, the lease that ended for released and revoked (and expired, once known)
 * @param previous the revision of the key's message this one followed ({@code Nats-Last-Sequence},
 *                 the server's own count per key): 0 when the key had none (never written, or its
 *                 last marker or tombstone expired away, which publishes nothing); empty when the
 *                 event does not say. A subscriber that knows the key's last revision and reads
 *                 another one here has missed an event of the key.
 * @param revokedBy who revoked, for a revoke whose write names them ({@link LeaseHeaders#REVOKED_BY},
 *                 ADR-041); empty otherwise
 * @param check    for a handover, the check whose yes it answers ({@link LeaseHeaders#CHECK}, ADR-047);
 *                 empty otherwise, and from a dagnats older than the header
 */
public record LeaseChange(Instant time, LeaseKey key, Kind kind, long sequence, Optional<HolderId> holder,
        Optional<Incarnation> incarnation, Optional<Fence> fence, Optional<String> reason, Optional<Duration> ttl,
        OptionalLong previous, Optional<String> revokedBy, Optional<String> check) {

    /** A change that answers no successor's yes. */
    public LeaseChange(Instant time, LeaseKey key, Kind kind, long sequence, Optional<HolderId> holder,
            Optional<Incarnation> incarnation, Optional<Fence> fence, Optional<String> reason, Optional<Duration> ttl,
            OptionalLong previous, Optional<String> revokedBy) {
        this(time, key, kind, sequence, holder, incarnation, fence, reason, ttl, previous, revokedBy, Optional.empty());
    }

    /** A change that names no revoker. */
    public LeaseChange(Instant time, LeaseKey key, Kind kind, long sequence, Optional<HolderId> holder,
            Optional<Incarnation> incarnation, Optional<Fence> fence, Optional<String> reason, Optional<Duration> ttl,
            OptionalLong previous) {
        this(time, key, kind, sequence, holder, incarnation, fence, reason, ttl, previous, Optional.empty());
    }

    /** A change whose event does not say which revision of the key it followed. */
    public LeaseChange(Instant time, LeaseKey key, Kind kind, long sequence, Optional<HolderId> holder,
            Optional<Incarnation> incarnation, Optional<Fence> fence, Optional<String> reason, Optional<Duration> ttl) {
        this(time, key, kind, sequence, holder, incarnation, fence, reason, ttl, OptionalLong.empty());
    }

    /** A change that names no incarnation. */
    public LeaseChange(Instant time, LeaseKey key, Kind kind, long sequence, Optional<HolderId> holder,
            Optional<Fence> fence, Optional<String> reason, Optional<Duration> ttl) {
        this(time, key, kind, sequence, holder, Optional.empty(), fence, reason, ttl);
    }

    /**
     * The claimant the write names ({@link LeaseHeaders#HOLDER} and {@link LeaseHeaders#INCARNATION}),
     * for a write dagnats made; empty for an expiry or a removal with NATS' own tools.
     */
    public Optional<Claimant> claimant() {
        return holder.map(id -> new Claimant(id, incarnation));
    }

    public enum Kind {
        ACQUIRED, RENEWED, RELEASED, REVOKED, EXPIRED,
        /**
         * The owner handed the lease to the holder (and incarnation) this change names, whose new
         * tenure begins at this change's revision (ADR-042); it owns only after its own renew.
         */
        HANDED_OVER,
        /** ADR-043: attached to a member lease (the holder's, named by {@link LeaseHeaders#MEMBER}). */
        ATTACHED,
        /** ADR-043: attached to a successor's member lease; the holder is the successor. */
        MOVED,
        /** ADR-043: an attached key whose member lease ended, told free (it was free from that end). */
        FREED;

        /** The event's wire name: {@code acquired}, ..., {@code handed-over}. */
        public String word() {
            return this == HANDED_OVER ? LeaseEvent.HANDED_OVER.wireName() : name().toLowerCase(Locale.ROOT);
        }

        /** The key is free after this change: released, revoked, expired or freed. */
        public boolean endsLease() {
            return this == RELEASED || this == REVOKED || this == EXPIRED || this == FREED;
        }
    }

    /** The reason the server writes on the marker that ends a key by its TTL. */
    static final String EXPIRY_MARKER_REASON = "MaxAge";

    // JetStream's headers on every republished message; the user guide names them as part of the events.
    private static final String SEQUENCE = "Nats-Sequence";
    private static final String TIME_STAMP = "Nats-Time-Stamp";
    private static final String MARKER_REASON = "Nats-Marker-Reason";
    private static final String TTL = "Nats-TTL";
    private static final String LAST_SEQUENCE = "Nats-Last-Sequence";
    /** NATS' own KV delete and purge ({@code nats kv del|purge}); dagnats' deletes also carry its event header. */
    private static final String KV_OPERATION = "KV-Operation";

    /**
     * @param header   the event's header values by name (null when absent); {@code name -> null} for none
     * @param received when this machine received it, used when the event carries no server time
     * @return empty for what is no lease change: an event this version does not know, a subject that
     *         is no key, or headers that break the contract. A key removed with NATS' own tools (a
     *         KV delete or purge, or another marker than an expiry's, without dagnats' event header)
     *         reads as revoked, naming nobody: the key is free, and its holder must stop.
     */
    public static Optional<LeaseChange> read(String subject, Function<String, String> header, Instant received) {
        if (!subject.startsWith(LeaseSubjects.CHANGED_PREFIX)) {
            return Optional.empty();
        }
        try {
            long sequence = Long.parseLong(header.apply(SEQUENCE));
            return read(subject.substring(LeaseSubjects.CHANGED_PREFIX.length()), header, sequence,
                    time(header.apply(TIME_STAMP)).orElse(received));
        } catch (IllegalArgumentException broken) {
            // NumberFormatException and InvalidLeaseInput included: not an event of this contract.
            return Optional.empty();
        }
    }

    /**
     * The change one message of the bucket's stream is, as a consumer of the stream reads it: the
     * same headers as its event, with the revision and the time the stream stored it taken from the
     * consumer's metadata instead of the event's {@code Nats-Sequence} and {@code Nats-Time-Stamp}.
     *
     * @param key      what follows the bucket's key prefix in the stored subject
     * @param sequence the message's stream sequence (its revision)
     * @param stored   when the stream stored it
     * @return empty as for {@link #read(String, Function, Instant)}
     */
    public static Optional<LeaseChange> readStored(String key, Function<String, String> header, long sequence,
            Instant stored) {
        try {
            return read(key, header, sequence, stored);
        } catch (IllegalArgumentException broken) {
            return Optional.empty();
        }
    }

    /** @throws IllegalArgumentException (InvalidLeaseInput included) for what breaks the contract */
    private static Optional<LeaseChange> read(String keyText, Function<String, String> header, long sequence,
            Instant time) {
        LeaseKey key = new LeaseKey(keyText);
        OptionalLong previous = previous(header.apply(LAST_SEQUENCE), sequence);
        String event = header.apply(LeaseHeaders.EVENT);
        if (event == null) {
            String marker = header.apply(MARKER_REASON);
            if (EXPIRY_MARKER_REASON.equals(marker)) {
                return Optional.of(new LeaseChange(time, key, Kind.EXPIRED, sequence, Optional.empty(),
                        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), previous));
            }
            String operation = marker != null ? "marker " + marker
                    : header.apply(KV_OPERATION) != null ? KV_OPERATION + ": " + header.apply(KV_OPERATION) : null;
            if (operation == null) {
                return Optional.empty();
            }
            return Optional.of(new LeaseChange(time, key, Kind.REVOKED, sequence, Optional.empty(),
                    Optional.empty(), Optional.empty(),
                    Optional.of("removed with NATS' own tools (" + operation + "), not through dagnats"),
                    Optional.empty(), previous));
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
            // dagnats removed a lease the store forgot to expire (ADR-035): an expiry like the server's.
            case EXPIRED -> Kind.EXPIRED;
            case HANDED_OVER -> Kind.HANDED_OVER;
            case ATTACHED -> Kind.ATTACHED;
            case MOVED -> Kind.MOVED;
            case FREED -> Kind.FREED;
        };
        Optional<HolderId> holder = Optional.ofNullable(header.apply(LeaseHeaders.HOLDER)).map(HolderId::new);
        Optional<Incarnation> incarnation =
                Optional.ofNullable(header.apply(LeaseHeaders.INCARNATION)).map(Incarnation::new);
        boolean makesLease = kind == Kind.ACQUIRED || kind == Kind.RENEWED || kind == Kind.HANDED_OVER;
        Optional<Fence> fence = makesLease || kind == Kind.ATTACHED || kind == Kind.MOVED
                ? Optional.of(new Fence(sequence))
                : LeaseHeaders.parseFence(header.apply(LeaseHeaders.FENCE));
        Optional<Duration> ttl = makesLease
                ? seconds(header.apply(TTL))
                : Optional.empty();
        Optional<String> revokedBy = kind == Kind.REVOKED
                ? Optional.ofNullable(header.apply(LeaseHeaders.REVOKED_BY)) : Optional.empty();
        Optional<String> check = kind == Kind.HANDED_OVER
                ? Optional.ofNullable(header.apply(LeaseHeaders.CHECK)) : Optional.empty();
        return Optional.of(new LeaseChange(time, key, kind, sequence, holder, incarnation, fence,
                Optional.ofNullable(header.apply(LeaseHeaders.REASON)), ttl, previous, revokedBy, check));
    }

    /** The same change with the holder and fence of the lease it ended, as remembered. */
    public LeaseChange whoseLease(HolderId holder, Fence fence) {
        return new LeaseChange(time, key, kind, sequence, Optional.of(holder), incarnation, Optional.of(fence), reason,
                ttl, previous, revokedBy, check);
    }

    /** A previous revision: digits only, below this event's own; anything else does not say. */
    private static OptionalLong previous(String value, long sequence) {
        if (value == null || value.isEmpty() || !value.chars().allMatch(digit -> digit >= '0' && digit <= '9')) {
            return OptionalLong.empty();
        }
        try {
            long previous = Long.parseLong(value);
            return previous < sequence ? OptionalLong.of(previous) : OptionalLong.empty();
        } catch (NumberFormatException tooLong) {
            return OptionalLong.empty();
        }
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
