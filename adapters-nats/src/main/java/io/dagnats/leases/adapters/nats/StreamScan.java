package io.dagnats.leases.adapters.nats;

import java.util.List;
import java.util.OptionalLong;

/**
 * What one look along the bucket's stream found: its messages on the key
 * subjects, in sequence order, and the sequence the next look starts at (empty
 * when no message after them matched when the look was answered).
 */
record StreamScan(List<StoredMessage> messages, OptionalLong next) {

    StreamScan {
        messages = List.copyOf(messages);
    }
}
