package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonFactory;
import io.dagnats.leases.domain.AttachedRecord;
import io.dagnats.leases.domain.Attachment;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The stored form of a key attached to a member lease (ADR-043), and older records beside it. */
class AttachedRecordCodecTest {

    private static final LeaseKey SHARD = new LeaseKey("set-shard-3");
    private static final Instant AT = Instant.parse("2026-12-04T10:00:00Z");
    private final JsonFactory json = new JsonFactory();

    @Test
    void anAttachedRecordReadsBackAsTheRecordItWroteWithNoTtlOfItsOwn() throws Exception {
        Attachment attachment = new Attachment(new LeaseKey("set-member-a"), new Fence(40), Optional.of("2"));
        Claimant holder = new Claimant(new HolderId("a"), Optional.of(new Incarnation("run-1")));
        LeaseWrite.Put put = new LeaseWrite.Put(SHARD, 0, LeaseEvent.ATTACHED, holder, AT, AT, LeaseTtl.ofSeconds(15),
                Optional.empty(), Optional.of(attachment), Optional.empty());
        byte[] body = LeaseRecord.encode(put);

        LeaseRecord.Decoded decoded = LeaseRecord.decodeAny(json, SHARD, new StoredMessage(71, "$KV.leases.set-shard-3",
                AT, Map.of(), body));

        AttachedRecord record = assertInstanceOf(LeaseRecord.Decoded.Attached.class, decoded).record();
        assertEquals(new AttachedRecord(SHARD, holder, new Fence(71), new Fence(71), AT, attachment), record);
        String text = new String(body, StandardCharsets.UTF_8);
        assertFalse(text.contains("ttl_ms"), text);
        assertFalse(text.contains("written_at"), text);
        // Where only a plain lease may be (never in dagnats' own reads), an attached record is refused.
        assertThrows(LeaseRecord.UnreadableRecord.class, () -> LeaseRecord.decode(json, SHARD,
                new StoredMessage(71, "$KV.leases.set-shard-3", AT, Map.of(), body)));
    }

    @Test
    void aRecordWrittenBeforeAttachedKeysStillReadsAsAPlainLease() throws Exception {
        byte[] old = ("{\"holder\":\"h\",\"acquired_at\":\"2026-10-18T12:00:00Z\",\"written_at\":\"2026-10-18T12:00:05Z\","
                + "\"ttl_ms\":15000,\"tenure\":42}").getBytes(StandardCharsets.UTF_8);

        LeaseRecord.Decoded decoded = LeaseRecord.decodeAny(json, SHARD, new StoredMessage(43, "$KV.leases.set-shard-3",
                AT, Map.of(), old));

        assertEquals(Optional.empty(), assertInstanceOf(LeaseRecord.Decoded.Plain.class, decoded).lease().attachment());
        assertEquals(new Fence(42), ((LeaseRecord.Decoded.Plain) decoded).lease().tenure());
    }
}
