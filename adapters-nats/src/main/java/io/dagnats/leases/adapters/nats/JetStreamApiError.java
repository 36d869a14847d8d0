package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.domain.ErrorKind;

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

    /** The failure a call that met this error answers: 503s (no leader, JetStream busy) may pass; anything else is a fault. */
    LeaseFailure failure(String what) {
        return new LeaseFailure(code == 503 ? ErrorKind.UNAVAILABLE : ErrorKind.INTERNAL,
                "JetStream refused to " + what + ": " + description + " (" + errorCode + ")");
    }
}
