package io.dagnats.leases.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.KeyState;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hand-written lease view is byte for byte what Jackson writes for it. */
class LeaseViewBytesTest {

    private static final String TOKEN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

    @Test
    void acquireRenewAndOwnerRepliesAreWhatJacksonWrites() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            long revision = i % 3 == 0 ? random.nextLong(1, Long.MAX_VALUE) : random.nextLong(1, 10_000_000_000_000_000L);
            Instant acquired = Instant.ofEpochSecond(random.nextLong(0, 4_000_000_000L),
                    i % 2 == 0 ? random.nextInt(1000) * 1_000_000 : random.nextInt(1_000_000_000));
            Optional<Incarnation> incarnation = i % 4 == 0 ? Optional.empty() : Optional.of(new Incarnation(token(random)));
            Lease lease = new Lease(new LeaseKey(token(random)), new HolderId(token(random)), incarnation, new Fence(revision),
                    new Fence(random.nextLong(1, revision + 1)), acquired, acquired.plusMillis(random.nextInt(100_000)),
                    LeaseTtl.ofSeconds(random.nextInt(1, 601)));
            assertArrayEquals(jackson(lease, true), Replies.lease(lease, true));
            assertArrayEquals(jackson(lease, false), Replies.lease(lease, false));
            assertArrayEquals(jackson(lease, null), Replies.owner(new KeyState.Held(lease)));
        }
    }

    @Test
    void aRevisionAbove2To63IsLeftToJackson() {
        Lease lease = new Lease(new LeaseKey("k"), new HolderId("h"), new Fence(-2), new Fence(-2),
                Instant.EPOCH, Instant.EPOCH, new LeaseTtl(1000));
        assertNull(LeaseViewBytes.write(true, lease));
        assertArrayEquals(jackson(lease, true), Replies.lease(lease, true));
    }

    private static String token(SplittableRandom random) {
        StringBuilder token = new StringBuilder();
        for (int n = random.nextInt(1, 40); n > 0; n--) {
            token.append(TOKEN.charAt(random.nextInt(TOKEN.length())));
        }
        return token.toString();
    }

    /** The reply as the Jackson path writes it (the encoding before the hand-written one). */
    private static byte[] jackson(Lease lease, Boolean granted) {
        return JsonObjects.bytes(generator -> {
            if (granted != null) {
                generator.writeBooleanField(Fields.GRANTED, granted);
            }
            generator.writeBooleanField(Fields.HELD, true);
            generator.writeStringField(Fields.KEY, lease.key().value());
            generator.writeStringField(Fields.HOLDER, lease.holder().value());
            if (lease.incarnation().isPresent()) {
                generator.writeStringField(Fields.INCARNATION, lease.incarnation().get().value());
            }
            JsonObjects.writeFence(generator, Fields.REVISION, lease.revision());
            JsonObjects.writeFence(generator, Fields.TENURE, lease.tenure());
            generator.writeStringField(Fields.ACQUIRED_AT, DateTimeFormatter.ISO_INSTANT.format(lease.acquiredAt()));
            generator.writeStringField(Fields.EXPIRES_AT, DateTimeFormatter.ISO_INSTANT.format(lease.expiresAt()));
            generator.writeNumberField(Fields.TTL_MS, lease.ttl().millis());
        });
    }
}
