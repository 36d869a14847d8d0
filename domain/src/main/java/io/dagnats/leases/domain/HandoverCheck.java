package io.dagnats.leases.domain;

/**
 * The id of the check whose yes a handover answers (ADR-046): dagnats asks the successor under a
 * fresh one, and writes the handover only after the yes to it. The handover's record carries it
 * (ADR-047), so its change event tells the successor, straight from the server, that the write its
 * yes was for has landed. Same syntax as {@link HolderId}, at most 64 characters.
 */
public record HandoverCheck(String value) {

    static final int MAX_LENGTH = 64;

    public HandoverCheck {
        Token.require("handover check", value, 1, MAX_LENGTH);
    }

    @Override
    public String toString() {
        return value;
    }
}
