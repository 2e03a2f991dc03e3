package dev.assay.tools.internal;

import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code write_file(path, content)}: creates or overwrites a text file, creating parent directories. */
public final class WriteFileTool extends BuiltinTool {
    public WriteFileTool() {
        super(
                ToolNames.WRITE_FILE,
                "Create or overwrite a text file in the workspace, creating missing parent directories.",
                List.of(
                        Param.required("path", "string", "File path relative to the workspace."),
                        Param.required("content", "string", "The complete new content of the file.")));
    }

    @Override
    ToolResult run(Arguments arguments, Workspace workspace) throws IOException {
        Path file = arguments.path("path", workspace);
        String content = arguments.text("content");
        if (Files.isDirectory(file)) {
            throw TextFiles.failure("file.is_directory", "the path is a directory, not a file", file, workspace);
        }
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        Files.write(file, bytes);
        return ToolResult.ok("wrote " + bytes.length + " bytes to " + workspace.relativize(file));
    }
}
