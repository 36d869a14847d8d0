package io.dagnats.leases.protocol;

import io.dagnats.leases.domain.ErrorKind;

/**
 * The NATS micro error headers (ADR-32's {@code Nats-Service-Error} and
 * {@code Nats-Service-Error-Code}) that every error reply carries besides its
 * JSON body, and the code each {@link ErrorKind} gets (ADR-030). The body is
 * the contract callers parse; the headers are for generic micro tooling and
 * for the service's {@code num_errors}.
 */
public final class ServiceErrors {

    /** The error reply's sentence, as a header value ({@link #headerValue}). */
    public static final String ERROR = "Nats-Service-Error";
    /** The error reply's code: a decimal integer, HTTP-like ({@link #code}). */
    public static final String CODE = "Nats-Service-Error-Code";

    /** Longer sentences are cut in the header; the body keeps them whole. */
    static final int MAX_HEADER_SENTENCE = 1024;
    private static final String CUT = "...";

    private ServiceErrors() {
    }

    /**
     * The {@link #CODE} of {@code kind}: the HTTP status whose meaning is closest.
     * Several kinds share a code; the body's {@code kind} tells them apart. A switch
     * without default, so a new kind does not compile until it has one.
     */
    public static int code(ErrorKind kind) {
        return switch (kind) {
            case INVALID -> 400;
            case FORBIDDEN -> 403;
            // Nobody (the right one) is there: no owner to forward to, no successor waiting.
            case NO_OWNER, NO_SUCCESSOR -> 404;
            // Both say the caller's view of who owns the key is out of date.
            case LOST, OWNER_REJECTED -> 409;
            case REPLY_TOO_LARGE -> 413;
            case INTERNAL -> 500;
            case UNSUPPORTED -> 501;
            case OWNER_UNAVAILABLE -> 502;
            case UNAVAILABLE -> 503;
            case OWNER_TIMEOUT -> 504;
        };
    }

    /**
     * {@code sentence} as a NATS header value: one line of printable US-ASCII (a
     * header cannot hold CR, LF or bytes past 127), anything else as {@code ?}, at
     * most {@value #MAX_HEADER_SENTENCE} characters.
     */
    public static String headerValue(String sentence) {
        boolean cut = sentence.length() > MAX_HEADER_SENTENCE;
        String shown = cut ? sentence.substring(0, MAX_HEADER_SENTENCE - CUT.length()) : sentence;
        StringBuilder value = new StringBuilder(shown.length() + CUT.length());
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            value.append(c < 0x20 || c > 0x7e ? '?' : c);
        }
        return cut ? value.append(CUT).toString() : value.toString();
    }
}
