package io.dagnats.leases.domain;

/**
 * What dagnats can tell of how durable the leases bucket is: its replica count (file storage is
 * the only kind it serves). Whether a server fsyncs each write (`jetstream { sync_interval:
 * always }`) is a server setting no client can read, so it is named, not known: with the
 * default interval a power loss of every replica can lose acknowledged writes and hand their
 * revisions out again (docs/reliability.md, "Power loss").
 */
public record StoreDurability(int replicas) {

    public StoreDurability {
        if (replicas < 1) {
            throw new IllegalArgumentException("a bucket has at least one replica, not " + replicas);
        }
    }

    /** One phrase for the start line and {@code dagnats status}. */
    public String phrase() {
        String where = replicas == 1
                ? "file storage on 1 server: acknowledged writes survive its power loss"
                : "file storage on " + replicas + " servers: acknowledged writes survive the loss of a minority,"
                        + " and a power loss of all";
        return where + " only with sync_interval: always " + (replicas == 1 ? "there" : "on each")
                + " (a server setting dagnats cannot read)";
    }
}
