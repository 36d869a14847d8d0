package io.dagnats.leases.acceptance.durability;

import com.fasterxml.jackson.databind.JsonNode;
import io.dagnats.leases.acceptance.durability.RecoveredBucket.Stored;
import io.dagnats.leases.acceptance.durability.RuleFollowingHolder.Acknowledged;
import java.time.Instant;

/**
 * Whether a key's last acknowledged write survived a power cut, as {@link PowerLossExperiment}
 * counts keys rolled back and owners behind: judged apart from the run that collects them.
 */
final class KeptWrites {

    private KeptWrites() {
    }

    /**
     * Whether the recovered store still has {@code last} for its key at {@code at}: the same write,
     * or a later revision; nothing at all counts as kept only when its TTL had run out.
     */
    static boolean kept(Acknowledged last, Stored stored, Instant at) {
        if (stored == null) {
            return Instant.parse(last.expiresAt()).isBefore(at); // gone only if its TTL had run out
        }
        if (stored.revision() != last.revision()) {
            return stored.revision() > last.revision();
        }
        return stored.holder().equals(last.holder()) && stored.acquiredAt().equals(last.acquiredAt());
    }

    /** The same judgement from the service's first {@code owner} answer after the restart. */
    static boolean answeredKept(Acknowledged last, JsonNode answer, Instant at) {
        if (!answer.path("held").asBoolean()) {
            return Instant.parse(last.expiresAt()).isBefore(at);
        }
        long revision = answer.path("revision").asLong();
        if (revision != last.revision()) {
            return revision > last.revision();
        }
        return last.holder().equals(answer.path("holder").asText())
                && last.acquiredAt().equals(answer.path("acquired_at").asText());
    }
}
