package io.dagnats.leases.bootstrap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** Reads one setting at a time from the environment; a wrong value fails with a sentence that names it. */
record EnvironmentReader(Map<String, String> environment) {

    /** The value, stripped; blank counts as unset. */
    Optional<String> text(String name) {
        String value = environment.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.strip());
    }

    /** @throws IllegalArgumentException when the value names no readable file */
    Optional<Path> file(String name) {
        Optional<String> value = text(name);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        Path path = Path.of(value.get());
        if (!Files.isReadable(path)) {
            throw new IllegalArgumentException(name + " names " + path + ", which is not a readable file");
        }
        return Optional.of(path);
    }

    /** @throws IllegalArgumentException when the value is no whole number from {@code min} to {@code max} */
    long number(String name, long defaultValue, long min, long max) {
        Optional<String> value = text(name);
        if (value.isEmpty()) {
            return defaultValue;
        }
        long parsed;
        try {
            parsed = Long.parseLong(value.get());
        } catch (NumberFormatException notANumber) {
            throw new IllegalArgumentException(name + " must be a whole number, not \"" + value.get() + "\"");
        }
        if (parsed < min || parsed > max) {
            throw new IllegalArgumentException(name + " must be from " + min + " to " + max + ", not " + parsed);
        }
        return parsed;
    }
}
