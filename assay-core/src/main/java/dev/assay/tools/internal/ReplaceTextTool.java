package dev.assay.tools.internal;

import dev.assay.Problem;
import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code replace_text(path, pattern, replacement)}: replaces every match of a Java regular expression and reports how
 * many there were. The replacement may refer to groups ({@code $1}); a file without matches is left untouched and
 * reported with a count of 0. A replacement that runs past its time limit fails with {@code replace.timeout}, one that
 * overflows the stack with {@code replace.too_complex}; the file is then untouched.
 */
public final class ReplaceTextTool extends BuiltinTool {
    /** The replacement's time; a pattern that backtracks catastrophically fails instead of holding the case. */
    static final Duration TIME_LIMIT = Duration.ofSeconds(10);

    private final Duration timeLimit;

    public ReplaceTextTool() {
        this(TIME_LIMIT);
    }

    public ReplaceTextTool(Duration timeLimit) {
        super(
                ToolNames.REPLACE_TEXT,
                "Replace every match of a Java regular expression in a text file and report the number of replacements.",
                List.of(
                        Param.required("path", "string", "File path relative to the workspace."),
                        Param.required("pattern", "string", "Java regular expression to search for."),
                        Param.required(
                                "replacement",
                                "string",
                                "Replacement text; $1, $2... insert captured groups, \\$ is a literal dollar.")));
        this.timeLimit = timeLimit;
    }

    @Override
    ToolResult run(Arguments arguments, Workspace workspace) throws IOException {
        Path file = arguments.path("path", workspace);
        String patternText = arguments.string("pattern");
        String replacement = arguments.string("replacement");
        Pattern pattern;
        try {
            pattern = Pattern.compile(patternText);
        } catch (PatternSyntaxException e) {
            return ToolResult.failed(
                    Problem.of("replace.invalid_pattern", e.getDescription()).withDetail("pattern", patternText));
        }
        String content = TextFiles.readWhole(file, workspace);
        Matcher matcher = pattern.matcher(DeadlineText.of(content, timeLimit));
        var result = new StringBuilder();
        int count = 0;
        try {
            while (matcher.find()) {
                matcher.appendReplacement(result, replacement);
                count++;
            }
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            // Thrown by appendReplacement for "$9" without a group 9, a trailing backslash and the like.
            return ToolResult.failed(
                    Problem.of("replace.invalid_replacement", e.getMessage()).withDetail("replacement", replacement));
        } catch (DeadlineText.Exceeded e) {
            return ToolResult.failed(Problem.of(
                            "replace.timeout",
                            "the replacement took longer than " + timeLimit.toSeconds() + " s; simplify the pattern")
                    .withDetail("pattern", patternText));
        } catch (StackOverflowError e) {
            // java.util.regex recurses per repetition; a long text under a pattern like (a|b)* can exhaust the stack.
            return ToolResult.failed(
                    Problem.of("replace.too_complex", "the pattern is too deeply recursive for this file")
                            .withDetail("pattern", patternText));
        }
        matcher.appendTail(result);
        String relative = workspace.relativize(file);
        if (count > 0) {
            Files.writeString(file, result.toString(), StandardCharsets.UTF_8);
        }
        return ToolResult.ok("replaced " + count + (count == 1 ? " occurrence" : " occurrences") + " in " + relative);
    }
}
