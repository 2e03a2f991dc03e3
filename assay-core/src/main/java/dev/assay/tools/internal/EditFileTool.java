package dev.assay.tools.internal;

import dev.assay.Problem;
import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code edit_file(path, old_text, new_text)}: replaces one snippet that must occur exactly once, so an edit never
 * lands somewhere the model did not mean. Occurrences are counted overlapping ("aa" occurs twice in "aaa"), because
 * each is a place the edit could have meant.
 */
public final class EditFileTool extends BuiltinTool {
    public EditFileTool() {
        super(
                ToolNames.EDIT_FILE,
                "Replace one exact snippet of a text file with new text; the snippet must occur exactly once.",
                List.of(
                        Param.required("path", "string", "File path relative to the workspace."),
                        Param.required("old_text", "string", "The exact text to replace; must be unique in the file."),
                        Param.required("new_text", "string", "The replacement text.")));
    }

    @Override
    ToolResult run(Arguments arguments, Workspace workspace) throws IOException {
        Path file = arguments.path("path", workspace);
        String oldText = arguments.string("old_text");
        String newText = arguments.string("new_text");
        if (oldText.isEmpty()) {
            throw Arguments.invalid("old_text", "argument 'old_text' must not be empty");
        }
        String content = TextFiles.readWhole(file, workspace);
        int first = content.indexOf(oldText);
        if (first < 0) {
            return failed("edit.no_match", "old_text does not occur in ", file, workspace, 0);
        }
        int occurrences = 1;
        for (int at = content.indexOf(oldText, first + 1); at >= 0; at = content.indexOf(oldText, at + 1)) {
            occurrences++;
        }
        if (occurrences > 1) {
            return failed(
                    "edit.ambiguous",
                    "old_text occurs " + occurrences + " times, add surrounding lines to make it unique in ",
                    file,
                    workspace,
                    occurrences);
        }
        String edited = content.substring(0, first) + newText + content.substring(first + oldText.length());
        Files.writeString(file, edited, StandardCharsets.UTF_8);
        return ToolResult.ok("replaced 1 occurrence in " + workspace.relativize(file));
    }

    private static ToolResult failed(String type, String message, Path file, Workspace workspace, int occurrences) {
        String relative = workspace.relativize(file);
        return ToolResult.failed(Problem.of(type, message + relative)
                .withDetail("path", relative)
                .withDetail("occurrences", occurrences));
    }
}
