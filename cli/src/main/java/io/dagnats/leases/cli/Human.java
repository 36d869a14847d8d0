package io.dagnats.leases.cli;

import io.dagnats.leases.domain.Fence;
import io.dagnats.leases.domain.LeaseTtl;
import io.dagnats.leases.protocol.LeaseView;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/** Times and durations as people read them in a table. */
final class Human {

    private Human() {
    }

    /** UTC, to the second: {@code 2026-11-30T12:00:00Z}. */
    static String time(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }

    /** UTC, to the millisecond, for a line per event: {@code 2026-11-30T12:00:00.250Z}. */
    static String preciseTime(Instant instant) {
        return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.MILLIS));
    }

    /** Time left, to a tenth of a second under a minute ({@code 14.2s}, {@code 2m05s}); {@code 0s} when past. */
    static String timeLeft(Duration left) {
        if (left.isNegative() || left.isZero()) {
            return "0s";
        }
        if (left.compareTo(Duration.ofMinutes(1)) < 0) {
            return String.format(Locale.ROOT, "%.1fs", left.toMillis() / 1000.0);
        }
        return span(left);
    }

    /** A span in whole units: {@code 45s}, {@code 2m05s}, {@code 3h04m}, {@code 2d03h}. */
    static String span(Duration duration) {
        long seconds = Math.max(0, duration.toSeconds());
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
        }
        if (seconds < 86_400) {
            return String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds % 3600 / 60);
        }
        return String.format(Locale.ROOT, "%dd%02dh", seconds / 86_400, seconds % 86_400 / 3600);
    }

    /** A TTL, exact: {@code 15s}, {@code 1m30s}, {@code 10m}. */
    static String ttl(LeaseTtl ttl) {
        return setting(ttl.duration());
    }

    /** A configured duration in whole seconds, exact: {@code 15s}, {@code 1m30s}, {@code 10m}. */
    static String setting(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds < 60) {
            return seconds + "s";
        }
        return seconds % 60 == 0 ? seconds / 60 + "m" : seconds / 60 + "m" + seconds % 60 + "s";
    }

    /** A lease's tenure, or {@code ?} from a dagnats too old to tell it. */
    static String tenure(LeaseView lease) {
        return lease.tenure().map(Fence::toString).orElse("?");
    }

    /** {@code 1 lease}, {@code 3 leases}, {@code no leases}. */
    static String count(int count, String noun) {
        return switch (count) {
            case 0 -> "no " + noun + "s";
            case 1 -> "1 " + noun;
            default -> count + " " + noun + "s";
        };
    }
}
