package io.dagnats.leases.adapters.nats;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import io.dagnats.leases.domain.Principal;
import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.Timestamps;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/**
 * The value stored under a held key: {@code {"holder", "incarnation", "acquired_at",
 * "written_at", "ttl_ms", "tenure", "account", "user"}}; {@code incarnation} only when the holder sent one;
 * {@code account} and {@code user} only in identity mode (ADR-036), naming the principal that took the lease
 * ({@code user} when the account's import shares it), the account always the one of the key's subject. {@code tenure} is absent on the acquiring write, whose own
 * revision starts the tenure. {@code written_at} is the writer's clock when it
 * decided the write, so every view of one revision shows the same advisory expiry.
 *
 * <p>A key attached to a member lease (ADR-043) stores {@code attached_to} (the member's key, in the
 * same namespace), {@code member_tenure} and, if given, {@code value}, and no {@code written_at} or
 * {@code ttl_ms}: it has no TTL of its own. Records written before these fields read as plain leases.
 */
final class LeaseRecord {

    private LeaseRecord() {
    }

    static byte[] encode(LeaseWrite.Put put) {
        return JsonObjects.bytes(generator -> {
            generator.writeStringField("holder", put.holder().value());
            if (put.incarnation().isPresent()) {
                generator.writeStringField("incarnation", put.incarnation().get().value());
            }
            if (put.claimant().principal().isPresent()) {
                Principal principal = put.claimant().principal().get();
                generator.writeStringField("account", principal.account().value());
                if (principal.user().isPresent()) {
                    generator.writeStringField("user", principal.user().get());
                }
            }
            generator.writeStringField("acquired_at", Timestamps.format(put.acquiredAt()));
            if (put.attachment().isPresent()) {
                Attachment attachment = put.attachment().get();
                generator.writeStringField("attached_to", attachment.member().value());
                generator.writeNumberField("member_tenure", attachment.memberTenure().revision());
                if (attachment.value().isPresent()) {
                    generator.writeStringField("value", attachment.value().get());
                }
            } else {
                generator.writeStringField("written_at", Timestamps.format(put.writtenAt()));
                generator.writeNumberField("ttl_ms", put.ttl().millis());
            }
            if (put.continuedTenure().isPresent()) {
                generator.writeNumberField("tenure", put.continuedTenure().get().revision());
            }
        });
    }

    /**
     * Reads a stored record back into the lease it describes.
     *
     * @throws UnreadableRecord when the record is not one this service wrote; its message is one
     *                     line of ours naming the key and revision, never the parser's (which
     *                     quotes the stored bytes and spans two lines)
     */
    static Lease decode(JsonFactory json, LeaseKey key, StoredMessage message) throws UnreadableRecord {
        Decoded decoded = decodeAny(json, key, message);
        if (decoded instanceof Decoded.Plain plain) {
            return plain.lease();
        }
        throw unreadable(key, message, "an attached key, read where only a plain lease may be", null);
    }

    /** What a stored record is: a plain lease, or a key attached to a member lease (ADR-043). */
    sealed interface Decoded {
        record Plain(Lease lease) implements Decoded {
        }

        /** Whether anybody owns it is the liveness rule's to say, from the member's record. */
        record Attached(AttachedRecord record) implements Decoded {
        }
    }

    /**
     * Reads a stored record back into what it describes.
     *
     * @throws UnreadableRecord when the record is not one this service wrote
     */
    static Decoded decodeAny(JsonFactory json, LeaseKey key, StoredMessage message) throws UnreadableRecord {
        RecordFields fields = new RecordFields();
        try (JsonParser parser = json.createParser(message.data())) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw unreadable(key, message, "not a JSON object", null);
            }
            JsonFields.forEach(parser, (name, value) -> {
                switch (name) {
                    case "holder" -> fields.holder = value.getText();
                    case "incarnation" -> fields.incarnation = value.getText();
                    case "acquired_at" -> fields.acquiredAt = Timestamps.parse(value.getText());
                    case "written_at" -> fields.writtenAt = Timestamps.parse(value.getText());
                    case "ttl_ms" -> fields.ttlMillis = value.getLongValue();
                    case "tenure" -> fields.tenure = value.getLongValue();
                    case "account" -> fields.account = value.getText();
                    case "user" -> fields.user = value.getText();
                    case "attached_to" -> fields.attachedTo = value.getText();
                    case "member_tenure" -> fields.memberTenure = value.getLongValue();
                    case "value" -> fields.value = value.getText();
                    default -> { }
                }
            });
        } catch (IOException | RuntimeException malformed) {
            throw malformed instanceof UnreadableRecord ours ? ours
                    : unreadable(key, message, "not JSON, or a field of the wrong type", malformed);
        }
        if (fields.holder == null || fields.acquiredAt == null) {
            throw unreadable(key, message, "no holder or acquired_at", null);
        }
        try {
            Fence revision = new Fence(message.sequence());
            Fence tenureStart = fields.tenure == 0 ? revision : new Fence(fields.tenure);
            if (fields.attachedTo != null) {
                Attachment attachment = new Attachment(new LeaseKey(fields.attachedTo, key.account()),
                        new Fence(fields.memberTenure), Optional.ofNullable(fields.value));
                return new Decoded.Attached(new AttachedRecord(key, new Claimant(new HolderId(fields.holder),
                        Optional.ofNullable(fields.incarnation).map(Incarnation::new), principal(fields)),
                        revision, tenureStart, fields.acquiredAt, attachment));
            }
            return new Decoded.Plain(new Lease(key, new HolderId(fields.holder),
                    Optional.ofNullable(fields.incarnation).map(Incarnation::new), principal(fields), revision, tenureStart,
                    fields.acquiredAt,
                    fields.writtenAt == null ? message.time() : fields.writtenAt,
                    new LeaseTtl(fields.ttlMillis)));
        } catch (IllegalArgumentException invalid) {
            throw unreadable(key, message, "a field out of range", invalid);
        }
    }

    /** @throws IllegalArgumentException for a user without an account */
    private static Optional<Principal> principal(RecordFields fields) {
        if (fields.account == null) {
            if (fields.user != null) {
                throw new IllegalArgumentException("a user without an account");
            }
            return Optional.empty();
        }
        return Optional.of(new Principal(new Account(fields.account), Optional.ofNullable(fields.user)));
    }

    private static UnreadableRecord unreadable(LeaseKey key, StoredMessage message, String why, Throwable cause) {
        return new UnreadableRecord("the record of lease " + key + " at revision " + message.sequence()
                + " is not one dagnats wrote: " + why, cause);
    }

    /** A stored record this service cannot read as a lease; the message is one line of ours. */
    static final class UnreadableRecord extends IOException {
        private static final long serialVersionUID = 1L;

        UnreadableRecord(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What the walk of a record has read so far. */
    private static final class RecordFields {
        String holder;
        String incarnation;
        String account;
        String user;
        Instant acquiredAt;
        Instant writtenAt;
        long ttlMillis;
        long tenure;
        String attachedTo;
        long memberTenure;
        String value;
    }
}
