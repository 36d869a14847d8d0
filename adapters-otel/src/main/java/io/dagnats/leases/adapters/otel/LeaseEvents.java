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

    /** About 100 bytes each; past this, expiries of further leases go uncounted rather than memory growing. */
    static final int MAX_REMEMBERED = 200_000;

    private final LongCounter events;
    private final Map<String, Attributes> byEvent = new ConcurrentHashMap<>();
    /** Key to the revision of this instance's last lease write on it; only while expiries are counted. */
    private final Map<String, Long> written = new ConcurrentHashMap<>();
    private final boolean countsExpiries;

    /** @param countsExpiries whether {@link #expired} will be told of expiries: only then are writes remembered */
    LeaseEvents(Meter meter, boolean countsExpiries) {
        this.countsExpiries = countsExpiries;
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
        if (write instanceof LeaseWrite.Put) {
            if (written.size() < MAX_REMEMBERED || written.containsKey(key)) {
                written.put(key, revision.revision());
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
        Long mine = written.get(key.value());
        if (mine == null) {
            return;
        }
        if (mine == expiredRevision) {
            if (written.remove(key.value(), mine)) {
                count(EXPIRED);
            }
        } else if (Long.compareUnsigned(mine, expiredRevision) < 0) {
            // Another instance wrote the key after this one: this one's lease did not expire, it was replaced.
            written.remove(key.value(), mine);
        }
    }

    private void count(String event) {
        events.add(1, byEvent.computeIfAbsent(event, name -> Attributes.of(EVENT, name)));
    }
}
