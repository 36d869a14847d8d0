package io.dagnats.leases.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.protocol.LeaseChange;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WatchLinesTest {

    private static final Instant AT = Instant.parse("2026-12-01T23:39:19.433Z");

    private static LeaseChange revoked(Optional<String> by) {
        return new LeaseChange(AT, new LeaseKey("shard-1"), LeaseChange.Kind.REVOKED, 46,
                Optional.of(new HolderId("worker-b")), Optional.empty(), Optional.of(new Fence(43)),
                Optional.of("stuck"), Optional.empty(), OptionalLong.empty(), by);
    }

    @Test
    void aRevokeNamesWhoRevokedBesideWhoseLeaseItWas() {
        assertEquals("2026-12-01T23:39:19.433Z  revoked   shard-1  from worker-b  revoked by ops@box  revision 43"
                + "  seq 46  reason \"stuck\"", WatchLines.text(revoked(Optional.of("ops@box"))));
        assertEquals("{\"time\":\"2026-12-01T23:39:19.433Z\",\"event\":\"revoked\",\"key\":\"shard-1\","
                + "\"holder\":\"worker-b\",\"revoked_by\":\"ops@box\",\"revision\":43,\"sequence\":46,"
                + "\"reason\":\"stuck\"}", WatchLines.json(revoked(Optional.of("ops@box"))));
    }

    @Test
    void aRevokeThatNamesNobodySaysNothingOfIt() {
        assertFalse(WatchLines.text(revoked(Optional.empty())).contains("revoked by"));
        assertFalse(WatchLines.json(revoked(Optional.empty())).contains("revoked_by"));
    }
}
