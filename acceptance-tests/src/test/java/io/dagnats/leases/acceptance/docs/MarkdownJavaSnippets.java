package io.dagnats.leases.acceptance.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code ```java} blocks of a Markdown page, each turned into a Java source file that a
 * compiler can check, so a documented snippet cannot drift from the API it shows.
 *
 * <p>The convention (also in DEVELOPMENT.md, "Java snippets in the docs"): a block that declares a
 * type at its top level (or starts with {@code package} or {@code import}) is a whole compilation
 * unit and compiles as it stands. Any other block is a fragment: its statements become the body of
 * a method of a class that imports {@link #USUAL_IMPORTS}, what a user of the holder library
 * imports. What a fragment uses without showing it (a {@code scheduler}, a JDBC connection {@code
 * db}) is named in an HTML comment ending just before the fence, which the rendered page hides:
 * <pre>{@code
 * <!-- snippet context
 * import java.sql.PreparedStatement;
 * interface Scheduler { void start(); void stop(); }
 * Scheduler scheduler;
 * -->
 * }</pre>
 * Its {@code import} lines join the imports, the rest become members of the wrapping class.
 */
final class MarkdownJavaSnippets {

    /** The packages a user of the holder library imports; nested types are imported as a user would, by name. */
    static final List<String> USUAL_IMPORTS = List.of(
            "java.time.*", "java.util.*", "java.util.concurrent.*", "io.nats.client.*",
            "io.dagnats.leases.domain.*", "io.dagnats.leases.protocol.*", "io.dagnats.leases.holder.*",
            "io.dagnats.leases.fencing.jdbc.*");

    private static final Pattern CONTEXT = Pattern.compile("<!--\\s*snippet context\\s*\\n((?:(?!-->).)*)-->\\s*$", Pattern.DOTALL);
    private static final Pattern WHOLE_UNIT = Pattern.compile(
            "^(package |import |(public |final |abstract |sealed )*(class|record|interface|enum) )", Pattern.MULTILINE);
    private static final Pattern PUBLIC_TYPE = Pattern.compile("^public (final |abstract |sealed )*(class|record|interface|enum) (\\w+)", Pattern.MULTILINE);

    private MarkdownJavaSnippets() {
    }

    /**
     * One block as Java: {@code source} is what the compiler gets, its line {@code firstCodeLine} is
     * the block's first line, which is line {@code pageLine} of the page.
     */
    record Snippet(String page, int pageLine, String typeName, String source, int firstCodeLine) {

        /** The page line a compiler's line of {@link #source} stands for (the fence's line for wrapper lines). */
        int pageLineOf(long sourceLine) {
            long offset = sourceLine - firstCodeLine;
            return offset < 0 ? pageLine - 1 : pageLine + (int) offset;
        }
    }

    /** Every {@code ```java} block of {@code markdown}, the page being named {@code page} in reports. */
    static List<Snippet> of(String page, String markdown) {
        List<Snippet> snippets = new ArrayList<>();
        String[] lines = markdown.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].strip().equals("```java")) {
                continue;
            }
            int first = i + 1;
            int end = first;
            while (end < lines.length && !lines[end].strip().equals("```")) {
                end++;
            }
            String code = String.join("\n", List.of(lines).subList(first, end));
            String before = String.join("\n", List.of(lines).subList(0, i));
            String typeName = "Snippet" + snippets.size() + "_" + page.replaceAll("\\W", "_");
            snippets.add(javaOf(page, first + 1, typeName, code, contextBefore(before)));
            i = end;
        }
        return snippets;
    }

    private static String contextBefore(String markdownBeforeFence) {
        Matcher context = CONTEXT.matcher(markdownBeforeFence);
        return context.find() ? context.group(1) : "";
    }

    private static Snippet javaOf(String page, int pageLine, String typeName, String code, String context) {
        if (WHOLE_UNIT.matcher(code).find()) {
            Matcher publicType = PUBLIC_TYPE.matcher(code);
            return new Snippet(page, pageLine, publicType.find() ? publicType.group(3) : typeName, code, 1);
        }
        StringBuilder source = new StringBuilder();
        USUAL_IMPORTS.forEach(imported -> source.append("import ").append(imported).append(";\n"));
        List<String> members = new ArrayList<>();
        for (String line : context.split("\n")) {
            if (line.strip().startsWith("import ")) {
                source.append(line.strip()).append('\n');
            } else if (!line.isBlank()) {
                members.add(line);
            }
        }
        source.append("@SuppressWarnings(\"all\") abstract class ").append(typeName).append(" {\n");
        members.forEach(member -> source.append("    ").append(member).append('\n'));
        source.append("    void snippet() throws Exception {\n");
        int firstCodeLine = (int) source.chars().filter(c -> c == '\n').count() + 1;
        source.append(code).append("\n    }\n}\n");
        return new Snippet(page, pageLine, typeName, source.toString(), firstCodeLine);
    }
}
