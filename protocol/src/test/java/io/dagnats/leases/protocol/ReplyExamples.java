package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.time.Instant;
import java.util.Optional;

/** The lease the reply tests write and read back, and its view as the wire shows it. */
final class ReplyExamples {

    static final LeaseKey KEY = new LeaseKey("notify-leader");
    static final HolderId HOLDER = new HolderId("notify-7f3a");
    static final Lease LEASE = new Lease(KEY, HOLDER, new Fence(42), new Fence(40),
            Instant.parse("2026-10-18T12:00:00Z"), Instant.parse("2026-10-18T12:00:00.250Z"), LeaseTtl.ofSeconds(15));
    static final String VIEW = "\"held\":true,\"key\":\"notify-leader\",\"holder\":\"notify-7f3a\",\"revision\":42,\"tenure\":40,"
            + "\"acquired_at\":\"2026-10-18T12:00:00Z\",\"expires_at\":\"2026-10-18T12:00:15.250Z\",\"ttl_ms\":15000";
    static final LeaseView LEASE_VIEW = new LeaseView(KEY, HOLDER, Optional.empty(), new Fence(42),
            Optional.of(new Fence(40)), Instant.parse("2026-10-18T12:00:00Z"), Instant.parse("2026-10-18T12:00:15.250Z"), LeaseTtl.ofSeconds(15));

    private ReplyExamples() {
    }
}
