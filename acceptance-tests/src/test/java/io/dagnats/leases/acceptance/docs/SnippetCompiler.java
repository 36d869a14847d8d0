package io.dagnats.leases.acceptance.docs;

import io.dagnats.leases.acceptance.docs.MarkdownJavaSnippets.Snippet;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles documentation snippets with the JDK's compiler against this module's test class path
 * (the holder library, the fencing module, jnats, the domain), as a user's build would, and says
 * what it refused as {@code page:line: message}, the line being the page's, not the generated
 * source's, so a reader of a failure can go straight to the Markdown.
 */
final class SnippetCompiler {

    private SnippetCompiler() {
    }

    /** The compiler's errors about {@code snippets}, one {@code page:line: message} each; empty when all compile. */
    static List<String> errors(List<Snippet> snippets, Path classesOut) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("no system Java compiler: run the tests on a JDK, not a JRE");
        }
        Map<JavaFileObject, Snippet> sources = new IdentityHashMap<>();
        snippets.forEach(snippet -> sources.put(sourceOf(snippet), snippet));
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("-classpath", testClassPath(), "-d", classesOut.toString(),
                    "-proc:none", "-Xlint:none", "-nowarn");
            compiler.getTask(null, files, diagnostics, options, null, sources.keySet()).call();
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
            if (diagnostic.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            Snippet snippet = sources.get(diagnostic.getSource());
            String where = snippet == null ? "(no snippet)" : snippet.page() + ":" + snippet.pageLineOf(diagnostic.getLineNumber());
            errors.add(where + ": " + diagnostic.getMessage(Locale.ROOT).replaceAll("\\s+", " "));
        }
        return errors;
    }

    /** Surefire runs tests from a manifest-only jar, so java.class.path alone would name no dependency. */
    private static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static JavaFileObject sourceOf(Snippet snippet) {
        URI uri = URI.create("string:///" + snippet.typeName() + JavaFileObject.Kind.SOURCE.extension);
        return new SimpleJavaFileObject(uri, JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return snippet.source();
            }
        };
    }
}
