package io.dagnats.leases.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * A usage mistake as one line on stderr with a hint, exit code 2, instead of
 * the whole help: {@code dagnats: unknown option '--verison'; did you mean
 * --version? (try: dagnats --help)}.
 */
final class OneLineUsageErrors implements CommandLine.IParameterExceptionHandler {

    private final PrintWriter err;

    OneLineUsageErrors(PrintWriter err) {
        this.err = err;
    }

    @Override
    public int handleParseException(CommandLine.ParameterException mistake, String[] args) {
        CommandLine command = mistake.getCommandLine();
        err.println("dagnats: " + sentence(mistake, command) + " (try: "
                + command.getCommandSpec().qualifiedName() + " --help)");
        return CliFailure.USAGE;
    }

    private static String sentence(CommandLine.ParameterException mistake, CommandLine command) {
        if (!(mistake instanceof CommandLine.UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()) {
            return oneLine(mistake.getMessage());
        }
        String first = unmatched.getUnmatched().get(0);
        String what = first.startsWith("-") ? "unknown option"
                : command.getSubcommands().isEmpty() ? "unexpected argument" : "unknown command";
        List<String> suggestions = unmatched.getSuggestions();
        return what + " '" + first + "'"
                + (suggestions.isEmpty() ? "" : "; did you mean " + String.join(" or ", suggestions) + "?");
    }

    private static String oneLine(String message) {
        return message == null ? "a usage mistake" : message.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
