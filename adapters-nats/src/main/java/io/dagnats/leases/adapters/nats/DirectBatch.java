package io.dagnats.leases.adapters.nats;

import io.dagnats.leases.application.LeaseFailure;
import io.dagnats.leases.domain.ErrorKind;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * The answer to one batched direct get ({@code $JS.API.DIRECT.GET} with {@code batch}),
 * as it arrives on its inbox: one message per stored message, each with its
 * sequence, subject and time in headers, then an end-of-batch status (204,
 * with the last sequence sent and how many more match), or 404 when nothing
 * at or after the start matched. Fed from one subscription's thread.
 */
final class DirectBatch {

    private static final int END_OF_BATCH = 204;
    private static final int NOTHING_FOUND = 404;

    private final List<StoredMessage> messages = new ArrayList<>();
    private final CompletableFuture<StreamScan> done = new CompletableFuture<>();

    CompletableFuture<StreamScan> done() {
        return done;
    }

    void onMessage(Message message) {
        if (done.isDone()) {
            return;
        }
        try {
            if (message.isStatusMessage()) {
                end(message);
            } else {
                messages.add(stored(message));
            }
        } catch (RuntimeException garbled) {
            done.completeExceptionally(new LeaseFailure(ErrorKind.INTERNAL,
                    "JetStream's answer to a listing was unreadable: " + garbled.getMessage(), garbled));
        }
    }

    private void end(Message status) {
        int code = status.getStatus().getCode();
        if (code == END_OF_BATCH) {
            long pending = Long.parseLong(header(status, Subjects.HEADER_NUM_PENDING));
            long last = Long.parseLong(header(status, Subjects.HEADER_LAST_SEQUENCE));
            done.complete(new StreamScan(messages, pending == 0 ? OptionalLong.empty() : OptionalLong.of(last + 1)));
        } else if (code == NOTHING_FOUND) {
            done.complete(new StreamScan(messages, OptionalLong.empty()));
        } else {
            // 503: no server answers direct gets of the stream right now (no leader, no replica).
            done.completeExceptionally(new LeaseFailure(ErrorKind.UNAVAILABLE,
                    "JetStream did not answer the listing: " + code + " " + status.getStatus().getMessage()));
        }
    }

    private static StoredMessage stored(Message message) {
        Map<String, String> headers = new HashMap<>();
        message.getHeaders().forEach((name, values) -> {
            if (!values.isEmpty()) {
                headers.put(name.toLowerCase(Locale.ROOT), values.get(values.size() - 1));
            }
        });
        return new StoredMessage(Long.parseLong(header(message, Subjects.HEADER_SEQUENCE)),
                header(message, Subjects.HEADER_SUBJECT),
                Instant.parse(header(message, Subjects.HEADER_TIME_STAMP)),
                headers, message.getData() == null ? new byte[0] : message.getData());
    }

    /** @throws IllegalArgumentException when the header is missing */
    private static String header(Message message, String name) {
        Headers headers = message.getHeaders();
        String value = headers == null ? null : headers.getLast(name);
        if (value == null) {
            throw new IllegalArgumentException("no " + name + " header");
        }
        return value;
    }
}
