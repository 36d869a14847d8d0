package io.dagnats.leases.image;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Markdown page links to, and which anchors it offers, read the way GitHub renders it.
 * Pure functions over a page's text, so the link rules are checked without any files.
 */
final class MarkdownLinks {

    /** {@code [text](target)} and {@code ![alt](target)}, the target up to whitespace (a title may follow). */
    private static final Pattern INLINE = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** A reference definition: {@code [name]: target}. */
    private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern HEADING = Pattern.compile("^\\s{0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("`+[^`]*`+");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    private MarkdownLinks() {
    }

    /**
     * The relative link targets of a page (path and optional {@code #anchor}), outside fenced code
     * and code spans, where text that merely looks like a link is not one; absolute URLs are left
     * out, since whether they resolve is the web's business, not the repository's.
     */
    static List<String> relativeTargets(String page) {
        List<String> targets = new ArrayList<>();
        for (String line : outsideCode(page)) {
            String prose = CODE_SPAN.matcher(line).replaceAll("");
            Matcher reference = REFERENCE.matcher(prose);
            if (reference.matches()) {
                addRelative(targets, reference.group(1));
                continue;
            }
            Matcher inline = INLINE.matcher(prose);
            while (inline.find()) {
                addRelative(targets, inline.group(1));
            }
        }
        return targets;
    }

    /**
     * The anchors a page's headings get on GitHub: lower case, punctuation but hyphens and
     * underscores dropped, spaces turned into hyphens, and a repeated slug numbered {@code -1},
     * {@code -2}, ... in order. Headings inside fenced code (a {@code # HELP} line of a scrape) are none.
     */
    static Set<String> anchors(String page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : outsideCode(page)) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int times = seen.merge(slug, 1, Integer::sum);
                anchors.add(times == 1 ? slug : slug + "-" + (times - 1));
            }
        }
        return anchors;
    }

    /** GitHub's slug of one heading's text. */
    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
        return text.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}\\p{M}\\p{Pc} -]", "")
                .replace(' ', '-');
    }

    /** The page's lines outside fenced code blocks ({@code ```} or {@code ~~~}). */
    private static List<String> outsideCode(String page) {
        List<String> lines = new ArrayList<>();
        String fence = null;
        for (String line : page.split("\n", -1)) {
            String trimmed = line.stripLeading();
            if (fence == null && (trimmed.startsWith("```") || trimmed.startsWith("~~~"))) {
                fence = trimmed.substring(0, 3);
            } else if (fence != null && trimmed.startsWith(fence)) {
                fence = null;
            } else if (fence == null) {
                lines.add(line);
            }
        }
        return lines;
    }

    private static void addRelative(List<String> targets, String target) {
        if (!SCHEME.matcher(target).find()) {
            targets.add(target);
        }
    }
}
