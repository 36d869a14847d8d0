package io.dagnats.leases.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.TextTable;
import picocli.CommandLine.Model.UsageMessageSpec;

/** The help's "Settings" section: every environment variable the service reads, as the JAR lists them. */
final class SettingsHelp {

    private static final String SECTION = "settings";
    private static final int INDENT = 2;
    private static final int GAP = 2;

    private SettingsHelp() {
    }

    /** Adds the section to {@code command}'s help, before its footer; nothing when there are no settings. */
    static void addTo(CommandLine command, List<ServiceLauncher.Setting> settings) {
        if (settings.isEmpty()) {
            return;
        }
        // On this command's own usage message: CommandLine's setters would pass the section on to every subcommand.
        UsageMessageSpec usage = command.getCommandSpec().usageMessage();
        Map<String, CommandLine.IHelpSectionRenderer> sections = new LinkedHashMap<>(usage.sectionMap());
        sections.put(SECTION, help -> render(help.colorScheme(), usage.width(), settings));
        usage.sectionMap(sections);
        List<String> keys = new ArrayList<>(usage.sectionKeys());
        keys.add(keys.indexOf(UsageMessageSpec.SECTION_KEY_FOOTER_HEADING), SECTION);
        usage.sectionKeys(keys);
    }

    private static String render(CommandLine.Help.ColorScheme colors, int width, List<ServiceLauncher.Setting> settings) {
        int names = settings.stream().mapToInt(setting -> setting.name().length()).max().orElse(0) + INDENT + GAP;
        TextTable table = TextTable.forColumns(colors,
                new Column(names, INDENT, Column.Overflow.SPAN),
                new Column(Math.max(20, width - names), 0, Column.Overflow.WRAP));
        for (ServiceLauncher.Setting setting : settings) {
            table.addRowValues(setting.name(), setting.meaning());
        }
        return String.format("%nSettings (environment variables, read once at start):%n") + table;
    }
}
