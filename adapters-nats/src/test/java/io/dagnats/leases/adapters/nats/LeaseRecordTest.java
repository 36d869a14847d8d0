package io.dagnats.leases.adapters.nats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import io.dagnats.leases.domain.Claimant;
import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.HolderId;
import io.dagnats.leases.domain.Incarnation;
import io.dagnats.leases.domain.Lease;
import io.dagnats.leases.domain.LeaseEvent;
import io.dagnats.leases.domain.LeaseKey;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.domain.LeaseWrite;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LeaseRecordTest {

    private static final LeaseKey KEY = new LeaseKey("junk");

    @ParameterizedTest
    @ValueSource(strings = {"not a lease", "[1,2]", "{\"holder\":", "{\"holder\":\"h\"}",
        "{\"holder\":\"h\",\"acquired_at\":\"yesterday\"}",
        "{\"holder\":\"h\",\"acquired_at\":\"2026-10-18T12:00:00Z\",\"ttl_ms\":\"x\\ny\"}",
        "{\"holder\":\"h\",\"acquired_at\":\"2026-10-18T12:00:00Z\",\"ttl_ms\":-5}"})
    void aRecordThisServiceDidNotWriteIsUnreadableInOneLineOfOurs(String body) {
        StoredMessage message = new StoredMessage(7, "$KV.leases.junk", Instant.EPOCH, Map.of(),
                body.getBytes(StandardCharsets.UTF_8));

        LeaseRecord.UnreadableRecord unreadable = assertThrows(LeaseRecord.UnreadableRecord.class,
                () -> LeaseRecord.decode(new JsonFactory(), KEY, message));

        String sentence = unreadable.getMessage();
        assertTrue(sentence.startsWith("the record of lease junk at revision 7 is not one dagnats wrote: "), sentence);
        assertFalse(sentence.contains("\n") || sentence.contains("Source") || sentence.contains("yesterday"), sentence);
    }

    @Test
    void anUnreadableRecordIsLoggedOnceHoweverManyPagesPassIt() {
        long sequence = 1;
        UnreadableRecords records = new UnreadableRecords();
        LeaseRecord.UnreadableRecord unreadable = new LeaseRecord.UnreadableRecord("the record of lease junk", null);

        assertTrue(records.passedOver(sequence, unreadable));
        assertFalse(records.passedOver(sequence, unreadable));
        assertTrue(records.passedOver(sequence + 1, unreadable), "a new write is a new record");
        for (long other = 100; other < 100 + UnreadableRecords.REMEMBERED; other++) {
            records.passedOver(other, unreadable);
        }
        assertTrue(records.passedOver(sequence, unreadable), "only the last ones are remembered");
    }

    @Test
    void aRecordKeepsTheIncarnationItWasWrittenUnderAndAPlainHoldersHasNone() throws Exception {
        JsonFactory json = new JsonFactory();
        Instant at = Instant.parse("2026-10-18T12:00:00Z");
        for (Optional<Incarnation> incarnation : List.of(Optional.<Incarnation>empty(), Optional.of(new Incarnation("run-1")))) {
            LeaseWrite.Put put = new LeaseWrite.Put(KEY, 0, LeaseEvent.ACQUIRED,
                    new Claimant(new HolderId("h"), incarnation), at, at, LeaseTtl.ofSeconds(15), Optional.empty());

            Lease read = LeaseRecord.decode(json, KEY, new StoredMessage(7, "$KV.leases.junk", at, Map.of(),
                    LeaseRecord.encode(put)));

            assertEquals(put.leaseAt(new Fence(7)), read);
        }
    }
}
