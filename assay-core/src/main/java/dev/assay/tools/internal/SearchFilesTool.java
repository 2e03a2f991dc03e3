package dev.assay.tools.internal;

import dev.assay.Problem;
import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code search_files(pattern, path?)}: grep over the text files below a directory (or in one file), one
 * {@code relative/path:line: text} line per matching line, capped. Binary files, files over
 * {@link TextFiles#MAX_TEXT_BYTES} and symbolic links are skipped. A search that runs past its time limit fails with
 * {@code search.timeout}, one that overflows the stack with {@code search.too_complex}.
 */
public final class SearchFilesTool extends BuiltinTool {
    static final int MAX_MATCHES = 200;
    static final int MAX_LINE_CHARS = 300;
    private static final int MAX_DEPTH = 32;
    /** The whole search's time; a pattern that backtracks catastrophically fails instead of holding the case. */
    static final Duration TIME_LIMIT = Duration.ofSeconds(10);

    private final Duration timeLimit;

    public SearchFilesTool() {
        this(TIME_LIMIT);
    }

    public SearchFilesTool(Duration timeLimit) {
        super(
                ToolNames.SEARCH_FILES,
                "Search the text files below a workspace path for lines matching a Java regular expression.",
                List.of(
                        Param.required("pattern", "string", "Java regular expression matched against each line."),
                        Param.optional(
                                "path",
                                "string",
                                "File or directory relative to the workspace; the workspace itself when omitted.")));
        this.timeLimit = timeLimit;
    }

    @Override
    ToolResult run(Arguments arguments, Workspace workspace) throws IOException {
        String patternText = arguments.string("pattern");
        Path start = arguments.optionalPath("path", workspace);
        Pattern pattern;
        try {
            pattern = Pattern.compile(patternText);
        } catch (PatternSyntaxException e) {
            return ToolResult.failed(
                    Problem.of("search.invalid_pattern", e.getDescription()).withDetail("pattern", patternText));
        }
        if (!Files.exists(start)) {
            throw TextFiles.failure("file.not_found", "no such file or directory", start, workspace);
        }
        List<Path> files = Files.isDirectory(start)
                ? WorkspaceWalk.below(start, MAX_DEPTH).stream()
                        .filter(WorkspaceWalk.Entry::regularFile)
                        .map(WorkspaceWalk.Entry::path)
                        .toList()
                : List.of(start);
        long deadline = System.nanoTime() + timeLimit.toNanos();
        try {
            return search(files, pattern, deadline, workspace);
        } catch (DeadlineText.Exceeded e) {
            return ToolResult.failed(Problem.of(
                            "search.timeout",
                            "the search took longer than " + timeLimit.toSeconds() + " s; simplify the pattern")
                    .withDetail("pattern", patternText));
        } catch (StackOverflowError e) {
            // java.util.regex recurses per repetition; a long line under a pattern like (a|b)* can exhaust the stack.
            return ToolResult.failed(
                    Problem.of("search.too_complex", "the pattern is too deeply recursive for these files")
                            .withDetail("pattern", patternText));
        }
    }

    private static ToolResult search(List<Path> files, Pattern pattern, long deadline, Workspace workspace)
            throws IOException {
        var out = new StringBuilder();
        int matches = 0;
        for (Path file : files) {
            Optional<TextFiles.Text> text = Files.size(file) > TextFiles.MAX_TEXT_BYTES
                    ? Optional.empty()
                    : TextFiles.read(file, workspace, TextFiles.MAX_TEXT_BYTES);
            if (text.isEmpty()) {
                continue;
            }
            String relative = workspace.relativize(file);
            String[] lines = text.get().content().split("\\R", -1);
            for (int i = 0; i < lines.length; i++) {
                if (!pattern.matcher(new DeadlineText(lines[i], deadline)).find()) {
                    continue;
                }
                if (matches == MAX_MATCHES) {
                    out.append("[truncated: stopped after ").append(MAX_MATCHES).append(" matches]\n");
                    return ToolResult.ok(TextFiles.cap(out.toString(), OUTPUT_CAP_BYTES));
                }
                matches++;
                out.append(relative)
                        .append(':')
                        .append(i + 1)
                        .append(": ")
                        .append(shortened(lines[i]))
                        .append('\n');
            }
        }
        return ToolResult.ok(matches == 0 ? "no matches" : TextFiles.cap(out.toString(), OUTPUT_CAP_BYTES));
    }

    private static String shortened(String line) {
        String trimmed = line.stripTrailing();
        return trimmed.length() <= MAX_LINE_CHARS ? trimmed : trimmed.substring(0, MAX_LINE_CHARS) + " [...]";
    }
}
