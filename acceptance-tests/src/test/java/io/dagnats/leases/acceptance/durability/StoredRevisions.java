package io.dagnats.leases.acceptance.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.api.MessageInfo;
import io.nats.client.impl.Headers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * Exact revision bookkeeping for the cluster fault tests: which write each
 * stream sequence (revision) of the {@code leases} bucket named, as the bucket's
 * change events ({@code dagnats.lease.changed.>}, republished by the stream
 * with {@code Nats-Sequence}) report it, and the check that no acknowledged
 * write was lost.
 *
 * <p>A revision must name one write for good. If a fault loses the stream's
 * tail, the sequences after the surviving tail are handed out again to new
 * writes; the change events then report one sequence for two different writes,
 * which {@link #checkNoRevisionNamedTwoWrites} fails on. Events published while
 * this observer was reconnecting are missed, so that check can miss a reuse;
 * {@link #checkAcknowledgedWritesKept} is the exact one.
 */
final class StoredRevisions implements AutoCloseable {

    /** One write as a caller learned of it: {@code holder} was told {@code revision} for {@code key}. */
    record Write(String key, String holder, long revision) {
    }

    /** What the stream stored under one sequence: the key, and the holder or the marker's reason. */
    record Stored(String key, String holderOrMarker, String body) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Connection connection;
    private final Dispatcher dispatcher;
    private final Map<Long, Stored> bySequence = new ConcurrentHashMap<>();
    private final List<String> namedTwice = new CopyOnWriteArrayList<>();
    /** Sequences reported for the first time, with System.nanoTime when their event arrived. */
    private final Map<Long, Long> firstSeenAt = new ConcurrentHashMap<>();

    StoredRevisions(Connection connection) throws Exception {
        this.connection = connection;
        this.dispatcher = connection.createDispatcher(this::stored);
        dispatcher.subscribe("dagnats.lease.changed.>");
        connection.flush(Duration.ofSeconds(5));
    }

    private void stored(Message event) {
        Headers headers = event.getHeaders();
        if (headers == null || headers.getFirst("Nats-Sequence") == null) {
            return;
        }
        long sequence = Long.parseLong(headers.getFirst("Nats-Sequence"));
        String subject = Objects.requireNonNullElse(headers.getFirst("Nats-Subject"), event.getSubject());
        Stored now = new Stored(keyOf(subject), holderOrMarker(headers, event.getData()),
                new String(event.getData() == null ? new byte[0] : event.getData(), StandardCharsets.UTF_8));
        Stored before = bySequence.putIfAbsent(sequence, now);
        if (before == null) {
            firstSeenAt.put(sequence, System.nanoTime());
        }
        if (before != null && !before.equals(now)) {
            namedTwice.add("revision " + sequence + " named " + before + " and then " + now);
        }
    }

    private static String keyOf(String subject) {
        return subject.substring(subject.lastIndexOf('.') + 1);
    }

    private static String holderOrMarker(Headers headers, byte[] data) {
        String marker = headers == null ? null : headers.getFirst("Nats-Marker-Reason");
        if (marker != null) {
            return "marker:" + marker;
        }
        if (data == null || data.length == 0) {
            return "empty";
        }
        try {
            JsonNode record = JSON.readTree(data);
            return record.path("holder").asText("unreadable");
        } catch (IOException unreadable) {
            return "unreadable";
        }
    }

    /** The write stored under {@code sequence}, as its change event reported it; null when none was seen. */
    Stored at(long sequence) {
        return bySequence.get(sequence);
    }

    /**
     * The lowest revision first stored after {@code sinceNanos} (an event that
     * repeats a write already seen, as a replay might, does not count); empty
     * when none was.
     */
    OptionalLong lowestNewRevisionSince(long sinceNanos) {
        return firstSeenAt.entrySet().stream().filter(entry -> entry.getValue() - sinceNanos > 0)
                .mapToLong(Map.Entry::getKey).min();
    }

    /** No sequence was reported for two different writes. */
    void checkNoRevisionNamedTwoWrites() {
        assertTrue(namedTwice.isEmpty(), String.join("\n", namedTwice));
    }

    /**
     * The exact lost-write rule. For each key, let A be the highest revision any
     * holder was acknowledged (granted, renewed, released), told to holder H.
     * After recovery, the key's last message (read through the stream leader) is:
     * <ul>
     * <li>exactly revision A, and a record of holder H (or, for a release, what
     *     the release wrote); or</li>
     * <li>a later revision that is explained without losing A: the server's own
     *     expiry marker ({@code Nats-Marker-Reason: MaxAge}, the TTL of A ran out
     *     once the load stopped renewing), or a write some caller was told about
     *     ({@code observed}: an acquire answered {@code held} naming that holder
     *     and revision, as when a write committed but its reply was lost).</li>
     * </ul>
     * A last message below A, or at A with another holder, or above A and
     * explained by nothing, means an acknowledged write was lost (or its revision
     * reused). Also, every acknowledged revision whose change event was seen
     * named that key and holder.
     *
     * @param lastMessage the key's last message through the leader; null when it has none
     */
    void checkAcknowledgedWritesKept(Collection<Write> acknowledged, Collection<Write> observed,
            Function<String, MessageInfo> lastMessage) {
        Map<String, Write> highest = new HashMap<>();
        for (Write write : acknowledged) {
            highest.merge(write.key(), write, (a, b) -> a.revision() >= b.revision() ? a : b);
            Stored stored = at(write.revision());
            if (stored != null) {
                assertEquals(write.key(), stored.key(), "revision " + write.revision() + " acknowledged to "
                        + write + " but stored as " + stored);
            }
        }
        List<String> problems = new ArrayList<>();
        for (Write latest : highest.values()) {
            MessageInfo last = lastMessage.apply(latest.key());
            if (last == null) {
                problems.add(latest + ": the key has no message at all");
                continue;
            }
            String holderOrMarker = holderOrMarker(last.getHeaders(), last.getData());
            if (last.getSeq() == latest.revision()) {
                if (!holderOrMarker.equals(latest.holder()) && !holderOrMarker.startsWith("marker:")
                        && !holderOrMarker.equals("empty")) {
                    problems.add(latest + ": the revision is there but holds " + holderOrMarker);
                }
            } else if (last.getSeq() < latest.revision()) {
                problems.add(latest + ": the key's last revision is " + last.getSeq() + " (" + holderOrMarker
                        + "), below the acknowledged one");
            } else {
                boolean expired = holderOrMarker.equals("marker:MaxAge");
                boolean seen = observed.contains(new Write(latest.key(), holderOrMarker, last.getSeq()));
                if (!expired && !seen) {
                    problems.add(latest + ": the key moved on to revision " + last.getSeq() + " (" + holderOrMarker
                            + "), a write nobody was told of and not an expiry");
                }
            }
        }
        if (!problems.isEmpty()) {
            fail("acknowledged writes lost:\n" + String.join("\n", problems));
        }
    }

    @Override
    public void close() {
        connection.closeDispatcher(dispatcher);
    }
}
