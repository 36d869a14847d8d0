package io.dagnats.leases.protocol;

import static io.dagnats.leases.protocol.ReplyExamples.LEASE;
import static io.dagnats.leases.protocol.ReplyExamples.LEASE_VIEW;
import static io.dagnats.leases.protocol.ReplyExamples.VIEW;
import static io.dagnats.leases.protocol.WireText.bytes;
import static io.dagnats.leases.protocol.WireText.text;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A list page as the service writes it, and as a client reads it back. */
class ListReplyTest {

    @Test
    void theServiceWritesAListPage() {
        assertEquals("{\"leases\":[{" + VIEW + "},{" + VIEW + "}],\"next_cursor\":\"43\"}",
                text(Replies.list(List.of(LEASE, LEASE), Optional.of("43"))));
        assertEquals("{\"leases\":[]}", text(Replies.list(List.of(), Optional.empty())));
    }

    @Test
    void aClientReadsBackAListPage() {
        assertEquals(new Answers.Listing(List.of(LEASE_VIEW, LEASE_VIEW), Optional.of("43")),
                Replies.decodeList(Replies.list(List.of(LEASE, LEASE), Optional.of("43"))));
        assertEquals(new Answers.Listing(List.of(), Optional.empty()),
                Replies.decodeList(Replies.list(List.of(), Optional.empty())));
        // An empty page that still names a cursor: the walk is not over.
        assertEquals(new Answers.Listing(List.of(), Optional.of("99")),
                Replies.decodeList(Replies.list(List.of(), Optional.of("99"))));
    }

    @Test
    void fieldsANewerServiceAddsToAListedLeaseAreSkipped() {
        String lease = "{\"granted\":true," + VIEW + ",\"extra\":{\"a\":[1]}}";
        assertEquals(new Answers.Listing(List.of(LEASE_VIEW), Optional.empty()),
                Replies.decodeList(bytes("{\"leases\":[" + lease + "],\"total\":1}")));
    }
}
