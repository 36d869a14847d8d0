package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.LeaseKey;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One candidate's answer (ADR-042), on {@code dagnats.lease.candidates.<key>} to a gathering and on
 * {@code dagnats.lease.candidate.<holder>.<key>} to a targeted check:
 * {@code {"key","holder","incarnation","priority","version","waited_ms","state"}}. Nothing of it is
 * stored: it is what a live process says of itself now, so it proves nothing but that the process
 * answered; an impostor can at most have a lease handed to it that it never renews (liveness, not
 * safety: the record expires at its TTL).
 *
 * @param priority what the user set: higher is preferred
 * @param version  the process's version, as the user orders versions (the binary's, by default); at most
 *                 {@value #MAX_VERSION_LENGTH} printable ASCII characters, possibly empty
 * @param waited   how long the process has continuously wanted the key, on its own monotonic clock
 */
public record Candidate(LeaseKey key, HolderId holder, Incarnation incarnation, long priority, String version,
        Duration waited, State state) {

    public static final int MAX_VERSION_LENGTH = 256;

    public Candidate {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(incarnation, "incarnation");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(waited, "waited");
        Objects.requireNonNull(state, "state");
        requireVersion(version);
        if (waited.isNegative()) {
            throw new InvalidLeaseInput("waited_ms must be 0 or more");
        }
    }

    /**
     * The wire's rule for a version, for whoever sets one before any answer is written.
     *
     * @throws InvalidLeaseInput when it is longer than {@value #MAX_VERSION_LENGTH} characters or not printable ASCII
     */
    public static String requireVersion(String version) {
        if (version.length() > MAX_VERSION_LENGTH || !version.chars().allMatch(c -> c >= ' ' && c <= '~')) {
            throw new InvalidLeaseInput("version must be at most " + MAX_VERSION_LENGTH + " printable ASCII characters");
        }
        return version;
    }

    /** Waiting for the key, willing to take it; or owning it now. */
    public enum State {
        WAITING, OWNER;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        static State fromWireName(String name) {
            for (State state : values()) {
                if (state.wireName().equals(name)) {
                    return state;
                }
            }
            throw new InvalidLeaseInput("state must be waiting or owner");
        }
    }

    /** The process this answer is from. */
    public Claimant claimant() {
        return Claimant.of(holder, incarnation);
    }

    /** The answer's body. */
    public byte[] encode() {
        return JsonObjects.bytes(this::write);
    }

    void write(JsonGenerator generator) throws IOException {
        generator.writeStringField(Fields.KEY, key.value());
        generator.writeStringField(Fields.HOLDER, holder.value());
        generator.writeStringField(Fields.INCARNATION, incarnation.value());
        generator.writeNumberField(Fields.PRIORITY, priority);
        generator.writeStringField(Fields.VERSION, version);
        generator.writeNumberField(Fields.WAITED_MS, waited.toMillis());
        generator.writeStringField(Fields.STATE, state.wireName());
    }

    /**
     * A candidate's answer, read strictly: every field present with its type, fields this version
     * does not know skipped (a newer holder may add some).
     *
     * @return empty for anything that is not one (garbage, a missing or ill-typed field, an invalid key)
     */
    public static Optional<Candidate> decode(byte[] body) {
        try {
            Reader reader = new Reader();
            FlatJson.read(body, "a candidate's answer", reader);
            return Optional.of(reader.candidate());
        } catch (IllegalArgumentException notOne) {
            // InvalidLeaseInput included: a malformed answer is dropped, never passed on.
            return Optional.empty();
        }
    }

    static Candidate read(JsonParser parser) throws IOException {
        Reader reader = new Reader();
        FlatJson.readObject(parser, "a candidate", reader);
        return reader.candidate();
    }

    private static final class Reader implements FlatJson.FieldReader {
        private String key;
        private String holder;
        private String incarnation;
        private Long priority;
        private String version;
        private Long waited;
        private String state;

        @Override
        public void field(String name, JsonToken value, JsonParser parser) throws IOException {
            switch (name) {
                case Fields.KEY -> key = FlatJson.string(parser, value, name);
                case Fields.HOLDER -> holder = FlatJson.string(parser, value, name);
                case Fields.INCARNATION -> incarnation = FlatJson.string(parser, value, name);
                case Fields.PRIORITY -> priority = FlatJson.integer(parser, value, name);
                case Fields.VERSION -> version = FlatJson.string(parser, value, name);
                case Fields.WAITED_MS -> waited = FlatJson.integer(parser, value, name);
                case Fields.STATE -> state = FlatJson.string(parser, value, name);
                default -> parser.skipChildren();
            }
        }

        Candidate candidate() {
            return new Candidate(new LeaseKey(FlatJson.required(key, Fields.KEY)),
                    new HolderId(FlatJson.required(holder, Fields.HOLDER)),
                    new Incarnation(FlatJson.required(incarnation, Fields.INCARNATION)),
                    FlatJson.required(priority, Fields.PRIORITY),
                    FlatJson.required(version, Fields.VERSION),
                    Duration.ofMillis(FlatJson.required(waited, Fields.WAITED_MS)),
                    State.fromWireName(FlatJson.required(state, Fields.STATE)));
        }
    }
}
