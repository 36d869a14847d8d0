package io.dagnats.leases.adapters.otel;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseWrite;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code dagnats.lease.events} counter: what happened to leases, one
 * {@code dagnats.lease.event} value each. Acquired, renewed, released and revoked
 * are this instance's writes that the bucket accepted (an acquire that finds the
 * caller already holding writes nothing and counts nothing); lost is an answer;
 * expired is the server's doing, counted by the instance that wrote the lease
 * that expired, so several instances count each expiry once.
 */
final class LeaseEvents {

    static final AttributeKey<String> EVENT = AttributeKey.stringKey("dagnats.lease.event");
    static final String EXPIRED = "expired";
    static final String LOST = "lost";

    /**
     * About 150 bytes each. When full, leases whose expiry is long past are forgotten (their
     * marker was lost); if that frees nothing, expiries of further leases go uncounted rather
     * than memory growing.
     */
    static final int MAX_REMEMBERED = 200_000;
    /** How long after its expiry a remembered lease waits for its marker before it may be forgotten. */
    private static final long MARKER_GRACE_MILLIS = 60_000;

    private final LongCounter events;
    private final Map<String, Attributes> byEvent = new ConcurrentHashMap<>();
    /** Key to this instance's last lease write on it; only while expiries are counted. */
    private final Map<String, Written> written = new ConcurrentHashMap<>();
    private final boolean countsExpiries;
    private final int capacity;

    /** @param countsExpiries whether {@link #expired} will be told of expiries: only then are writes remembered */
    LeaseEvents(Meter meter, boolean countsExpiries) {
        this(meter, countsExpiries, MAX_REMEMBERED);
    }

    /** @param capacity how many leases are remembered at most; tests make it small */
    LeaseEvents(Meter meter, boolean countsExpiries, int capacity) {
        this.countsExpiries = countsExpiries;
        this.capacity = capacity;
        events = meter.counterBuilder("dagnats.lease.events")
                .setDescription("Lease events: acquired, renewed, released and revoked (writes the bucket accepted),"
                        + " lost (renews and releases answered lost), expired (TTLs the server ran out)")
                .setUnit("{event}")
                .build();
    }

    /** A write of this instance that the bucket accepted at {@code revision}. */
    void written(LeaseWrite write, Fence revision) {
        count(write.event().wireName());
        if (!countsExpiries) {
            return;
        }
        String key = write.key().value();
        if (write instanceof LeaseWrite.Put put) {
            if (written.size() >= capacity && !written.containsKey(key)) {
                forgetLongExpired();
            }
            if (written.size() < capacity || written.containsKey(key)) {
                written.put(key, new Written(revision.revision(), put.writtenAt().toEpochMilli() + put.ttl().millis()));
            }
        } else {
            // A tombstone's own expiry is no lease expiring.
            written.remove(key);
        }
    }

    void lost() {
        count(LOST);
    }

    /** See {@link io.dagnats.leases.application.LeaseTelemetry#expired}. */
    void expired(LeaseKey key, Fence lastRevision) {
        long expiredRevision = lastRevision.revision();
        Written mine = written.get(key.value());
        if (mine == null) {
            return;
        }
        if (mine.revision() == expiredRevision) {
            if (written.remove(key.value(), mine)) {
                count(EXPIRED);
            }
        } else if (Long.compareUnsigned(mine.revision(), expiredRevision) < 0) {
            // Another instance wrote the key after this one: this one's lease did not expire, it was replaced.
            written.remove(key.value(), mine);
        }
    }

    private void forgetLongExpired() {
        long now = System.currentTimeMillis();
        written.values().removeIf(lease -> lease.expiresAtMillis() + MARKER_GRACE_MILLIS < now);
    }

    /** @param expiresAtMillis when the server frees the key if nobody writes it again (advisory) */
    private record Written(long revision, long expiresAtMillis) {
    }

    private void count(String event) {
        events.add(1, byEvent.computeIfAbsent(event, name -> Attributes.of(EVENT, name)));
    }
}
