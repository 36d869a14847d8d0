package io.dagnats.leases.cli;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;

/**
 * The "did you mean" of a misspelt name, by the same rule that suggests a command
 * for a misspelt one ({@link OneLineUsageErrors}): picocli's similarity of letter
 * pairs, reached through its public suggestion API so that the two cannot drift
 * apart. Used for settings, whose names share a prefix that would make every one
 * look alike: the prefix is compared away first.
 */
public final class NearestName {

    private NearestName() {
    }

    /**
     * @param prefix what every name in {@code known} starts with (may be empty), left out of the comparison
     * @return the known name most like {@code typed}; empty when none shares a pair of letters with it
     */
    public static Optional<String> of(String typed, Collection<String> known, String prefix) {
        CommandLine names = new CommandLine(CommandLine.Model.CommandSpec.create());
        for (String name : known) {
            names.addSubcommand(strip(name, prefix), new CommandLine(CommandLine.Model.CommandSpec.create()));
        }
        List<String> suggestions = new CommandLine.UnmatchedArgumentException(names, List.of(strip(typed, prefix)))
                .getSuggestions();
        return suggestions.stream().findFirst().map(nearest -> prefix + nearest);
    }

    private static String strip(String name, String prefix) {
        return name.startsWith(prefix) ? name.substring(prefix.length()) : name;
    }
}
