package io.dagnats.leases.protocol;

import static io.dagnats.leases.protocol.ReplyExamples.HOLDER;
import static io.dagnats.leases.protocol.ReplyExamples.KEY;
import static io.dagnats.leases.protocol.ReplyExamples.LEASE;
import static io.dagnats.leases.protocol.ReplyExamples.LEASE_VIEW;
import static io.dagnats.leases.protocol.ReplyExamples.VIEW;
import static io.dagnats.leases.protocol.WireText.text;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.Revocation;
import org.junit.jupiter.api.Test;

/** The revoke replies as the service writes them, and as a client reads them back. */
class RevokeReplyTest {

    @Test
    void theServiceWritesEachRevokeReply() {
        assertEquals("{\"revoked\":true,\"key\":\"notify-leader\",\"holder\":\"notify-7f3a\",\"revision\":44,"
                        + "\"revoked_revision\":42}",
                text(Replies.revoked(new Revocation.Revoked(KEY, HOLDER, new Fence(44), new Fence(42)))));
        assertEquals("{\"revoked\":false,\"held\":false,\"key\":\"notify-leader\"}",
                text(Replies.revoked(new Revocation.Free(KEY))));
        assertEquals("{\"revoked\":false," + VIEW + "}", text(Replies.revoked(new Revocation.NotCurrent(LEASE))));
    }

    @Test
    void aClientReadsBackEachRevokeReply() {
        assertEquals(new Answers.Revoke.Revoked(KEY, HOLDER, new Fence(44), new Fence(42)),
                Replies.decodeRevoke(Replies.revoked(new Revocation.Revoked(KEY, HOLDER, new Fence(44), new Fence(42)))));
        assertEquals(new Answers.Revoke.Free(KEY), Replies.decodeRevoke(Replies.revoked(new Revocation.Free(KEY))));
        assertEquals(new Answers.Revoke.NotCurrent(LEASE_VIEW),
                Replies.decodeRevoke(Replies.revoked(new Revocation.NotCurrent(LEASE))));
    }
}
