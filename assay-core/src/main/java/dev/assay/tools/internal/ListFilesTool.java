package dev.assay.tools.internal;

import dev.assay.tools.ToolNames;
import dev.assay.tools.ToolResult;
import dev.assay.tools.Workspace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code list_files(path?)}: the entries below a directory, four levels deep, one per line as workspace-relative paths
 * (so each can be passed to another tool as it is), directories ending in {@code /}, sorted, capped.
 */
public final class ListFilesTool extends BuiltinTool {
    static final int MAX_DEPTH = 4;
    static final int MAX_ENTRIES = 500;

    public ListFilesTool() {
        super(
                ToolNames.LIST_FILES,
                "List the files and directories below a workspace directory (directories end with /).",
                List.of(Param.optional(
                        "path", "string", "Directory relative to the workspace; the workspace itself when omitted.")));
    }

    @Override
    ToolResult run(Arguments arguments, Workspace workspace) throws IOException {
        Path dir = arguments.optionalPath("path", workspace);
        if (!Files.exists(dir)) {
            throw TextFiles.failure("file.not_found", "no such directory", dir, workspace);
        }
        if (!Files.isDirectory(dir)) {
            throw TextFiles.failure("file.not_directory", "the path is a file, not a directory", dir, workspace);
        }
        List<WorkspaceWalk.Entry> entries = WorkspaceWalk.below(dir, MAX_DEPTH);
        if (entries.isEmpty()) {
            return ToolResult.ok("(empty directory)");
        }
        var out = new StringBuilder();
        for (WorkspaceWalk.Entry entry : entries.subList(0, Math.min(entries.size(), MAX_ENTRIES))) {
            out.append(workspace.relativize(entry.path()))
                    .append(entry.directory() ? "/" : "")
                    .append('\n');
        }
        if (entries.size() > MAX_ENTRIES) {
            out.append("[truncated: showing the first ")
                    .append(MAX_ENTRIES)
                    .append(" of ")
                    .append(entries.size())
                    .append(" entries]\n");
        }
        return ToolResult.ok(TextFiles.cap(out.toString(), OUTPUT_CAP_BYTES));
    }
}
