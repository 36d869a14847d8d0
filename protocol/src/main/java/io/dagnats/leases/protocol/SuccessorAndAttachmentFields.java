package io.dagnats.leases.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The fields of a body that name a successor (ADR-042: {@code to_holder}, {@code to_incarnation}) or a
 * member lease (ADR-043: {@code member}, {@code member_tenure}, {@code value}, {@code to_member},
 * {@code to_member_tenure}), as {@link WireFields} reads them. Each is known in a request only on the
 * operations that take it, so on every other subject it stays the unknown field it always was.
 */
final class SuccessorAndAttachmentFields {

    /** Presence bits of the two number fields, in the same set as {@link WireFields}' own. */
    static final int MEMBER_TENURE = 64;
    static final int TO_MEMBER_TENURE = 128;

    private final boolean request;
    /** The operation a request is for; null for a reply. */
    private final Operation operation;

    String toHolder;
    String toIncarnation;
    String member;
    long memberTenure;
    String storedValue;
    String toMember;
    long toMemberTenure;
    int present;

    SuccessorAndAttachmentFields(boolean request, Operation operation) {
        this.request = request;
        this.operation = operation;
    }

    /** {@code to_holder} and {@code to_incarnation}: in a request, only on a handover or a move. */
    void successor(String name, JsonToken value, JsonParser parser) throws IOException {
        if (request && operation != Operation.HANDOVER && operation != Operation.MOVE) {
            // Only a handover or a move names a successor; elsewhere the field is unknown, as it always was.
            throw FlatJson.unknownField(name);
        }
        String text = FlatJson.string(parser, value, name);
        if (name.equals(Fields.TO_HOLDER)) {
            toHolder = text;
        } else {
            toIncarnation = text;
        }
    }

    /** ADR-043's fields: in a request, only on {@link Operation#takesAttachment()}; in a reply, a lease view's. */
    void attachment(String name, JsonToken value, JsonParser parser) throws IOException {
        if (request && !operation.takesAttachment()) {
            throw FlatJson.unknownField(name);
        }
        switch (name) {
            case Fields.MEMBER -> member = FlatJson.string(parser, value, name);
            case Fields.MEMBER_TENURE -> {
                memberTenure = FlatJson.integer(parser, value, name);
                present |= MEMBER_TENURE;
            }
            case Fields.VALUE -> storedValue = FlatJson.string(parser, value, name);
            case Fields.TO_MEMBER -> toMember = FlatJson.string(parser, value, name);
            default -> {
                toMemberTenure = FlatJson.integer(parser, value, name);
                present |= TO_MEMBER_TENURE;
            }
        }
    }
}
