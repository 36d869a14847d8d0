package io.dagnats.leases.adapters.nats;

import io.nats.client.api.ServerInfo;
import java.util.Optional;

/** A nats-server version, as far as deciding what the server can do. */
record ServerVersion(int major, int minor, int patch, String text) {

    /** The first version with per-message TTL (ADR-43), which leases rely on. */
    static final ServerVersion PER_MESSAGE_TTL = new ServerVersion(2, 11, 0, "2.11.0");

    static ServerVersion parse(String text) {
        String core = text == null ? "" : text.strip();
        if (core.startsWith("v")) {
            core = core.substring(1);
        }
        int end = 0;
        while (end < core.length() && (Character.isDigit(core.charAt(end)) || core.charAt(end) == '.')) {
            end++;
        }
        String[] parts = core.substring(0, end).split("\\.");
        return new ServerVersion(part(parts, 0), part(parts, 1), part(parts, 2), text == null ? "unknown" : text);
    }

    private static int part(String[] parts, int index) {
        if (index >= parts.length || parts[index].isEmpty()) {
            return 0;
        }
        try {
            return Integer.parseInt(parts[index]);
        } catch (NumberFormatException tooLong) {
            return Integer.MAX_VALUE;
        }
    }

    boolean isAtLeast(ServerVersion other) {
        if (major != other.major) {
            return major > other.major;
        }
        if (minor != other.minor) {
            return minor > other.minor;
        }
        return patch >= other.patch;
    }

    @Override
    public String toString() {
        return text;
    }

    /** Why the server {@code info} describes cannot serve leases at all (no per-message TTL, no JetStream); empty when it can. */
    static Optional<String> cannotServeLeases(ServerInfo info) {
        ServerVersion version = parse(info.getVersion());
        if (!version.isAtLeast(PER_MESSAGE_TTL)) {
            return Optional.of("nats-server " + version + " has no per-message TTL; leases need nats-server 2.11 or newer");
        }
        if (!info.isJetStreamAvailable()) {
            return Optional.of("JetStream is not enabled on nats-server " + version);
        }
        return Optional.empty();
    }
}
