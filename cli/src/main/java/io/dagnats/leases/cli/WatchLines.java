package io.dagnats.leases.cli;

import io.dagnats.leases.protocol.JsonObjects;
import io.dagnats.leases.protocol.LeaseChange;
/** How the watch prints a change: a line for people, or one JSON object per line. */
final class WatchLines {

    private WatchLines() {
    }

    /**
     * {@code 2026-11-30T12:00:00.250Z  acquired  notify-leader  by notify-7f3a  revision 42  ttl 15s},
     * {@code ... released  notify-leader  by notify-7f3a  revision 42  seq 44},
     * {@code ... expired   notify-leader  lease of notify-7f3a  revision 43  seq 45},
     * {@code ... revoked   notify-leader  from notify-7f3a  revoked by ops@box  revision 43  seq 46  reason "stuck"}
     * (who revoked, when the revoke named them: ADR-041).
     * The revision is the lease's fence; the seq, on a change that ended a lease, is the change's own
     * revision (what {@code --since} takes), which for an acquire or renew is its fence.
     */
    static String text(LeaseChange change) {
        StringBuilder line = new StringBuilder(Human.preciseTime(change.time()))
                .append("  ").append(String.format("%-8s", change.kind().word()))
                .append("  ").append(change.key());
        String whose = switch (change.kind()) {
            case ACQUIRED, RENEWED, RELEASED, ATTACHED, MOVED -> "by ";
            case HANDED_OVER -> "to ";
            case FREED -> "attached for ";
            case REVOKED -> "from ";
            case EXPIRED -> "lease of ";
        };
        line.append("  ").append(whose).append(change.holder().map(Object::toString).orElse("(unknown)"));
        change.revokedBy().ifPresent(by -> line.append("  revoked by ").append(by));
        change.fence().ifPresent(fence -> line.append("  revision ").append(fence));
        if (change.fence().isEmpty() || change.fence().get().revision() != change.sequence()) {
            line.append("  seq ").append(Long.toUnsignedString(change.sequence()));
        }
        change.ttl().ifPresent(ttl -> line.append("  ttl ").append(Human.setting(ttl)));
        change.reason().ifPresent(reason -> line.append("  reason \"").append(reason).append('"'));
        return line.toString();
    }

    /** {@code {"time":..., "event":"expired", "key":..., "holder":..., "revision":..., "sequence":...}}. */
    static String json(LeaseChange change) {
        return JsonObjects.text(generator -> {
            generator.writeStringField("time", Json.time(change.time()));
            generator.writeStringField("event", change.kind().word());
            generator.writeStringField("key", change.key().value());
            if (change.holder().isPresent()) {
                generator.writeStringField("holder", change.holder().get().value());
            }
            if (change.revokedBy().isPresent()) {
                generator.writeStringField("revoked_by", change.revokedBy().get());
            }
            if (change.fence().isPresent()) {
                JsonObjects.writeFence(generator, "revision", change.fence().get());
            }
            generator.writeNumberField("sequence", change.sequence());
            if (change.ttl().isPresent()) {
                generator.writeNumberField("ttl_ms", change.ttl().get().toMillis());
            }
            if (change.reason().isPresent()) {
                generator.writeStringField("reason", change.reason().get());
            }
        });
    }
}
