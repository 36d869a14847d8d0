package io.dagnats.leases.adapters.nats;

import java.util.Map;
import java.util.Optional;

/**
 * Which identity mode a bucket serves (ADR-036, amended): the mode decides how keys are named in
 * it (mode off {@code $KV.leases.<key>}, accounts {@code $KV.leases.<account>.<key>}) and whether
 * a caller is checked at all. Replicas of two modes on one bucket would answer one application's
 * lease as two leases, one of them unchecked; so the bucket records its mode when dagnats creates
 * it ({@link #METADATA}), and a replica of another mode refuses to serve it.
 */
public enum IdentityMode {
    OFF("off"),
    ACCOUNTS("accounts");

    /** The stream metadata key dagnats sets, to the mode's {@code DAGNATS_IDENTITY} value, on a bucket it creates. */
    static final String METADATA = "dagnats.identity";

    /**
     * Why a mode-off instance that saw the bucket recorded for identity mode does not create it again
     * once it is gone: whichever replica looks first creates the bucket in its own mode, and a stray
     * mode-off one would turn the checks off for the identity-mode deployment (the review of F2).
     */
    static final String NOT_RECREATED_OFF = "the bucket " + Subjects.BUCKET + " is gone, and this dagnats (identity"
            + " mode off) saw it recorded for identity mode accounts (" + METADATA + "), so it does not create it"
            + " again with the mode off: that would turn the caller checks off for the identity-mode deployment;"
            + " run it with DAGNATS_IDENTITY=accounts, or, to switch modes, restart it after following"
            + " docs/wire-protocol.md (Identity mode)";

    /** Longest recorded value shown in a refusal: the metadata is anyone's to write. */
    private static final int SHOWN = 40;

    private final String recorded;

    IdentityMode(String recorded) {
        this.recorded = recorded;
    }

    /** The value recorded in a bucket's metadata, and the {@code DAGNATS_IDENTITY} setting that runs this mode. */
    String recorded() {
        return recorded;
    }

    /**
     * Why this mode may not serve a bucket whose metadata is {@code metadata}; empty when the bucket
     * records this mode. A bucket that records none was made before dagnats recorded modes, when
     * every bucket was served with the mode off: it is a mode-off bucket.
     */
    Optional<String> refusal(Map<String, String> metadata) {
        String value = metadata == null ? null : metadata.get(METADATA);
        String bucketMode = value == null ? OFF.recorded : value.strip();
        if (bucketMode.equals(recorded)) {
            return Optional.empty();
        }
        String records = value == null
                ? "records no identity mode (" + METADATA + "), so it is a mode-off bucket (every bucket made before"
                        + " dagnats recorded the mode was served with the mode off)"
                : "records identity mode " + shown(value) + " (" + METADATA + ")";
        String cure = "; run every dagnats on it with the same DAGNATS_IDENTITY, or switch modes as docs/wire-protocol.md"
                + " (Identity mode) says: stop every replica of the other mode, wait for the longest TTL granted,"
                + " delete the bucket, then start only replicas of the new mode (no hand edit of " + METADATA + ")";
        return Optional.of("the bucket " + Subjects.BUCKET + " (stream " + Subjects.STREAM + ") " + records
                + ", and this dagnats runs with identity mode " + recorded + ": the two modes name keys"
                + " differently and only identity mode checks who calls, so one bucket serves one mode" + cure);
    }

    private static String shown(String value) {
        String cut = value.length() > SHOWN ? value.substring(0, SHOWN) + "..." : value;
        StringBuilder safe = new StringBuilder(cut.length() + 2).append('"');
        cut.codePoints().forEach(c -> safe.appendCodePoint(c < 0x20 || c > 0x7e || c == '"' ? '?' : c));
        return safe.append('"').toString();
    }
}
