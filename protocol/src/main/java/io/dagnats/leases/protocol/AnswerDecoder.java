package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Account;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.ErrorKind;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.InvalidLeaseInput;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * A client's side of {@link Replies}: a reply body read back into the operation's
 * {@link Answers}. An error reply is one of those answers only where the contract makes
 * its kind a normal outcome ({@code lost} for renew and release, the owner's failures for
 * forward); any other is a {@link DagnatsException} of its kind, and a reply that breaks
 * the contract is an {@code internal} one, never another exception. Kept apart from the
 * encoding so that every rule a client applies to what dagnats says is in one file;
 * {@link Replies} stays the one public door to both sides.
 */
final class AnswerDecoder {

    private AnswerDecoder() {
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    static Answers.Acquire decodeAcquire(byte[] body) {
        return decode(Operation.ACQUIRE, body, (fields, kind) -> {
            LeaseView lease = view(fields);
            return FlatJson.required(fields.granted, Fields.GRANTED)
                    ? new Answers.Acquire.Granted(lease)
                    : new Answers.Acquire.HeldByOther(lease);
        });
    }

    /** @throws DagnatsException for an error reply but {@code lost}, or one that breaks the contract */
    static Answers.Renew decodeRenew(byte[] body) {
        return decode(Operation.RENEW, body, (fields, kind) -> kind == ErrorKind.LOST
                ? new Answers.Renew.Lost(sentence(fields))
                : new Answers.Renew.Renewed(view(fields)));
    }

    /** @throws DagnatsException for an error reply but {@code lost}, or one that breaks the contract */
    static Answers.Release decodeRelease(byte[] body) {
        return decode(Operation.RELEASE, body, (fields, kind) -> kind == ErrorKind.LOST
                ? new Answers.Release.Lost(sentence(fields))
                : new Answers.Release.Released(new LeaseKey(fields.key), new HolderId(fields.holder), fence(fields)));
    }

    /** @throws DagnatsException for an error reply but {@code lost}, or one that breaks the contract */
    static Answers.Attach decodeAttach(byte[] body) {
        return decode(Operation.ATTACH, body, (fields, kind) -> {
            if (kind == ErrorKind.LOST) {
                return new Answers.Attach.Lost(sentence(fields));
            }
            LeaseView lease = view(fields);
            return FlatJson.required(fields.granted, Fields.GRANTED)
                    ? new Answers.Attach.Granted(lease)
                    : new Answers.Attach.HeldByOther(lease);
        });
    }

    /** @throws DagnatsException for an error reply but {@code lost}, or one that breaks the contract */
    static Answers.Release decodeDetach(byte[] body) {
        return decode(Operation.DETACH, body, (fields, kind) -> kind == ErrorKind.LOST
                ? new Answers.Release.Lost(sentence(fields))
                : new Answers.Release.Released(new LeaseKey(fields.key), new HolderId(fields.holder), fence(fields)));
    }

    /** @throws DagnatsException for an error reply but {@code lost} and {@code no_successor}, or one that breaks the contract */
    static Answers.Move decodeMove(byte[] body) {
        return decode(Operation.MOVE, body, (fields, kind) -> kind == ErrorKind.LOST
                ? new Answers.Move.Lost(sentence(fields))
                : kind == ErrorKind.NO_SUCCESSOR
                ? new Answers.Move.NoSuccessor(sentence(fields))
                : new Answers.Move.Moved(view(fields)));
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    static Answers.Owner decodeOwner(byte[] body) {
        return decode(Operation.OWNER, body, (fields, kind) -> FlatJson.required(fields.held, Fields.HELD)
                ? new Answers.Owner.Held(view(fields))
                : new Answers.Owner.Free(new LeaseKey(fields.key)));
    }

    /** @throws DagnatsException for an error reply that is no forward outcome, or one that breaks the contract */
    static Answers.Forward decodeForward(byte[] body) {
        return decode(Operation.FORWARD, body, (fields, kind) -> {
            if (kind != null) {
                return new Answers.Forward.NotAnswered(kind, sentence(fields),
                        Optional.ofNullable(fields.holder).map(HolderId::new),
                        fields.has(WireFields.REVISION) ? Optional.of(fence(fields)) : Optional.empty());
            }
            return new Answers.Forward.Answered(new HolderId(fields.holder), fence(fields),
                    Base64.getDecoder().decode(FlatJson.required(fields.payload, Fields.PAYLOAD)));
        });
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    static Answers.Listing decodeList(byte[] body) {
        return decode(Operation.LIST, body, (fields, kind) -> {
            List<LeaseView> leases = new ArrayList<>();
            for (WireFields lease : FlatJson.required(fields.leases, Fields.LEASES)) {
                leases.add(view(lease));
            }
            return new Answers.Listing(leases, Optional.ofNullable(fields.nextCursor));
        });
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    static Answers.Revoke decodeRevoke(byte[] body) {
        return decode(Operation.REVOKE, body, (fields, kind) -> {
            if (FlatJson.required(fields.revoked, Fields.REVOKED)) {
                return new Answers.Revoke.Revoked(new LeaseKey(fields.key), new HolderId(fields.holder),
                        fence(fields), revokedFence(fields));
            }
            return FlatJson.required(fields.held, Fields.HELD)
                    ? new Answers.Revoke.NotCurrent(view(fields))
                    : new Answers.Revoke.Free(new LeaseKey(fields.key));
        });
    }

    /** @throws DagnatsException for an error reply but {@code lost} and {@code no_successor}, or one that breaks the contract */
    static Answers.Handover decodeHandover(byte[] body) {
        return decode(Operation.HANDOVER, body, (fields, kind) -> {
            if (kind == ErrorKind.LOST) {
                return new Answers.Handover.Lost(sentence(fields));
            }
            if (kind == ErrorKind.NO_SUCCESSOR) {
                return new Answers.Handover.NoSuccessor(sentence(fields));
            }
            if (!FlatJson.required(fields.handedOver, Fields.HANDED_OVER)) {
                throw new InvalidLeaseInput(Fields.HANDED_OVER + " is false");
            }
            return new Answers.Handover.HandedOver(view(fields));
        });
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    static Answers.Candidates decodeCandidates(byte[] body) {
        return decode(Operation.CANDIDATES, body, (fields, kind) -> new Answers.Candidates(
                new LeaseKey(fields.key), FlatJson.required(fields.candidates, Fields.CANDIDATES)));
    }

    /** Builds one operation's answer from a reply that is one: an error reply or not, {@code kind} says. */
    @FunctionalInterface
    private interface Answer<A> {
        A from(WireFields fields, ErrorKind kind);
    }

    private static <A> A decode(Operation operation, byte[] body, Answer<A> answer) {
        try {
            WireFields fields = WireFields.reply(body);
            ErrorKind kind = null;
            if (fields.kind != null) {
                kind = Kinds.fromWireName(fields.kind).orElseThrow(
                        () -> new InvalidLeaseInput("it names an unknown kind \"" + fields.kind + "\""));
                if (!isAnswer(operation, kind)) {
                    throw new DagnatsException(kind, sentence(fields));
                }
            }
            return answer.from(fields, kind);
        } catch (DateTimeParseException | IllegalArgumentException broken) {
            // InvalidLeaseInput included: a reply whose values break the contract is dagnats' fault, not the caller's.
            throw new DagnatsException(ErrorKind.INTERNAL, "dagnats answered " + operation.endpointName()
                    + " with a reply that breaks the contract: " + broken.getMessage());
        }
    }

    /** Whether {@code kind} is one of the normal answers of {@code operation}, not a failure. */
    private static boolean isAnswer(Operation operation, ErrorKind kind) {
        return switch (operation) {
            case HANDOVER -> kind == ErrorKind.LOST || kind == ErrorKind.NO_SUCCESSOR;
            case RENEW, RELEASE, DETACH -> kind == ErrorKind.LOST;
            case ATTACH -> kind == ErrorKind.LOST;
            case MOVE -> kind == ErrorKind.LOST || kind == ErrorKind.NO_SUCCESSOR;
            case FORWARD -> kind == ErrorKind.NO_OWNER || kind == ErrorKind.OWNER_UNAVAILABLE
                    || kind == ErrorKind.OWNER_REJECTED || kind == ErrorKind.OWNER_TIMEOUT
                    || kind == ErrorKind.REPLY_TOO_LARGE;
            case ACQUIRE, OWNER, LIST, REVOKE, CANDIDATES -> false;
        };
    }

    private static LeaseView view(WireFields fields) {
        return new LeaseView(new LeaseKey(fields.key), new HolderId(fields.holder),
                Optional.ofNullable(fields.incarnation).map(Incarnation::new), fence(fields),
                fields.has(WireFields.TENURE) ? Optional.of(tenureFence(fields)) : Optional.empty(),
                Timestamps.parse(FlatJson.required(fields.acquiredAt, Fields.ACQUIRED_AT)),
                Timestamps.parse(FlatJson.required(fields.expiresAt, Fields.EXPIRES_AT)),
                new LeaseTtl(fields.required(WireFields.TTL)),
                Optional.ofNullable(fields.account).map(Account::new),
                Optional.ofNullable(fields.attachedTo).map(member -> new Attachment(new LeaseKey(member),
                        positive(fields, WireFields.MEMBER_TENURE, Fields.MEMBER_TENURE),
                        Optional.ofNullable(fields.linked.storedValue))));
    }

    private static Fence positive(WireFields fields, int field, String name) {
        long value = fields.required(field);
        if (value < 1) {
            throw new InvalidLeaseInput(name + " " + value + " is below 1");
        }
        return new Fence(value);
    }

    private static Fence fence(WireFields fields) {
        long revision = fields.required(WireFields.REVISION);
        if (revision < 1) {
            throw new InvalidLeaseInput("revision " + revision + " is below 1");
        }
        return new Fence(revision);
    }

    private static Fence tenureFence(WireFields fields) {
        long tenure = fields.required(WireFields.TENURE);
        if (tenure < 1) {
            throw new InvalidLeaseInput("tenure " + tenure + " is below 1");
        }
        return new Fence(tenure);
    }

    private static Fence revokedFence(WireFields fields) {
        long revision = fields.required(WireFields.REVOKED_REVISION);
        if (revision < 1) {
            throw new InvalidLeaseInput("revoked_revision " + revision + " is below 1");
        }
        return new Fence(revision);
    }

    private static String sentence(WireFields fields) {
        return fields.error == null ? "" : fields.error;
    }
}
