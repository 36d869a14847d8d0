package io.dagnats.leases.adapters.nats;

/** The JetStream API error of a get or a publish. */
record JetStreamApiError(int code, int errorCode, String description) {

    static final int NO_MESSAGE_FOUND = 10037;
    static final int STREAM_NOT_FOUND = 10059;
    static final int WRONG_LAST_SEQUENCE = 10071;
    /** The same refusal without the sequence in the text, as a recovering stream answers it. */
    static final int WRONG_LAST_SEQUENCE_CONSTANT = 10164;

    boolean wrongLastSequence() {
        return errorCode == WRONG_LAST_SEQUENCE || errorCode == WRONG_LAST_SEQUENCE_CONSTANT;
    }
}
