package io.dagnats.leases.adapters.nats;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The subjects the NATS server refused this connection's user to publish to, as its permission
 * violations name them. A request to such a subject is never answered, only timed out, so the
 * server's violation is the one fact that tells "not allowed" from "not answered yet": a part of
 * dagnats that may lack a permission asks here instead of trying again at every look and waiting
 * out a timeout each time. Fed by the connection's error listener; thread-safe.
 */
public final class PublishDenials {

    /** How nats-server words a publish permission violation (jnats passes the text on). */
    private static final String VIOLATION = "Permissions Violation for Publish to ";

    private final Set<String> denied = ConcurrentHashMap.newKeySet();
    private final Set<String> explained = ConcurrentHashMap.newKeySet();

    /**
     * Reads one error the server sent this connection.
     *
     * @return whether it is a publish violation of a subject that a part of dagnats explains in a
     *         log line of its own ({@link #explainedHere}), so the error listener need not log it too
     */
    public boolean read(String serverError) {
        if (serverError == null) {
            return false;
        }
        String error = serverError.strip();
        if (error.startsWith("'") && error.endsWith("'") && error.length() > 1) {
            error = error.substring(1, error.length() - 1);
        }
        if (!error.regionMatches(true, 0, VIOLATION, 0, VIOLATION.length())) {
            return false;
        }
        String subject = error.substring(VIOLATION.length()).strip();
        if (subject.length() > 1 && subject.startsWith("\"") && subject.endsWith("\"")) {
            subject = subject.substring(1, subject.length() - 1);
        }
        denied.add(subject);
        return explained.contains(subject);
    }

    /** Whether the server refused a publish to exactly {@code subject} since this connection opened. */
    boolean denied(String subject) {
        return denied.contains(subject);
    }

    /** A part of dagnats says itself what a denial of {@code subject} means: the error listener stays quiet on it. */
    void explainedHere(String subject) {
        explained.add(subject);
    }
}
