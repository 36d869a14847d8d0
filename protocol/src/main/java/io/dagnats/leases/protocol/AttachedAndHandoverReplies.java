package io.dagnats.leases.protocol;

/**
 * A client's decoding of the replies about keys attached to a member lease (ADR-043: attach, detach,
 * move) and about succession (ADR-042: handover, candidates); {@link Replies} decodes the lease
 * operations' and writes every reply. The rules live in {@link AnswerDecoder}.
 */
public final class AttachedAndHandoverReplies {

    private AttachedAndHandoverReplies() {
    }

    /** @throws DagnatsException for an error reply but {@code lost}, or one that breaks the contract */
    public static Answers.Attach decodeAttach(byte[] body) {
        return AnswerDecoder.decodeAttach(body);
    }

    /** @throws DagnatsException for an error reply but {@code lost}, or one that breaks the contract */
    public static Answers.Release decodeDetach(byte[] body) {
        return AnswerDecoder.decodeDetach(body);
    }

    /** @throws DagnatsException for an error reply but {@code lost} and {@code no_successor}, or one that breaks the contract */
    public static Answers.Move decodeMove(byte[] body) {
        return AnswerDecoder.decodeMove(body);
    }

    /** @throws DagnatsException for an error reply but {@code lost} and {@code no_successor}, or one that breaks the contract */
    public static Answers.Handover decodeHandover(byte[] body) {
        return AnswerDecoder.decodeHandover(body);
    }

    /** @throws DagnatsException for an error reply, or one that breaks the contract */
    public static Answers.Candidates decodeCandidates(byte[] body) {
        return AnswerDecoder.decodeCandidates(body);
    }
}
