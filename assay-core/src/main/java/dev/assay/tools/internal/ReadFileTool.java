package dev.assay.tools.internal;

import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** {@code read_file(path)}: a text file's content, capped; binary files are refused. */
public final class ReadFileTool extends BuiltinTool {
    public ReadFileTool() {
        super(
                ToolNames.READ_FILE,
                "Read a UTF-8 text file in the workspace and return its content.",
                List.of(Param.required("path", "string", "File path relative to the workspace.")));
    }

    @Override
    ToolResult run(Arguments arguments, Workspace workspace) throws IOException {
        Path file = arguments.path("path", workspace);
        var text = TextFiles.read(file, workspace, OUTPUT_CAP_BYTES)
                .orElseThrow(
                        () -> TextFiles.failure("file.binary", "the file is binary, not UTF-8 text", file, workspace));
        String content = text.content();
        if (!text.truncated()) {
            return ToolResult.ok(content);
        }
        long shown = content.getBytes(StandardCharsets.UTF_8).length;
        return ToolResult.ok(content + TextFiles.truncationNote(shown, text.size()));
    }
}
