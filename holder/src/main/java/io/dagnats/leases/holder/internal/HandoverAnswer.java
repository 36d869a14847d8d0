package io.dagnats.leases.holder.internal;

/**
 * What {@code api.leases.handover} answered (ADR-042). A call that went unanswered is no answer:
 * it may have written, and the keeper renews to learn whether the key is still its own.
 */
public enum HandoverAnswer {
    /** Written: the successor's record at a higher fence; it owns on dagnats' grant of its yes, or after its own renew. */
    HANDED_OVER,
    /** The successor did not say it waits, right now, under that incarnation: nothing was written. */
    NO_SUCCESSOR,
    /** The lease was no longer the caller's at the revision it sent: nothing was written. */
    LOST;

    /** The wire's answer, as the keeper's rules take it. */
    public static HandoverAnswer of(io.dagnats.leases.protocol.Answers.Handover answer) {
        if (answer instanceof io.dagnats.leases.protocol.Answers.Handover.HandedOver) {
            return HANDED_OVER;
        }
        return answer instanceof io.dagnats.leases.protocol.Answers.Handover.NoSuccessor ? NO_SUCCESSOR : LOST;
    }
}
