package dev.assay.tools;

import dev.assay.sandbox.Sandbox;
import dev.assay.tools.internal.EditFileTool;
import dev.assay.tools.internal.ExecuteCommandTool;
import dev.assay.tools.internal.FinalAnswerTool;
import dev.assay.tools.internal.ListFilesTool;
import dev.assay.tools.internal.ReadFileTool;
import dev.assay.tools.internal.ReplaceTextTool;
import dev.assay.tools.internal.SearchFilesTool;
import dev.assay.tools.internal.WriteFileTool;
import java.util.List;
import java.util.Objects;

/**
 * Assay's built-in workspace tools, the one place they are listed. Every path argument goes through
 * {@link Workspace#resolve}; no tool throws for anything a model sends. Failed results carry one of these problem
 * types:
 *
 * <ul>
 *   <li>{@code tool.invalid_args} — an argument is missing or unusable; detail {@code argument} names it
 *   <li>{@code workspace.escape} — a path is absolute, climbs out with {@code ..}, or goes through a link that leaves
 *       the workspace
 *   <li>{@code file.not_found}, {@code file.is_directory}, {@code file.not_directory}, {@code file.binary},
 *       {@code file.too_large}, {@code file.io_error} — detail {@code path} where one is known
 *   <li>{@code edit.no_match}, {@code edit.ambiguous} — edit_file's snippet occurs zero or several times; detail
 *       {@code occurrences}
 *   <li>{@code replace.invalid_pattern}, {@code replace.invalid_replacement}, {@code search.invalid_pattern}
 *   <li>{@code search.timeout}, {@code search.too_complex}, {@code replace.timeout}, {@code replace.too_complex} — a
 *       pattern ran past the time limit or overflowed the stack; detail {@code pattern}
 *   <li>{@code command.timeout} — execute_command ran out of time; {@code sandbox.*} — the sandbox could not run the
 *       command (its own problem is passed on; {@code sandbox.failed} for anything unexpected)
 * </ul>
 *
 * Outputs are capped at 64 KiB and end with a {@code [truncated: ...]} note when cut. Thread-safe.
 */
public final class BuiltinTools {
    /** The tool provider {@code workspace}: these tools, execute_command only when the run has a sandbox. */
    public static final ToolProvider PROVIDER = new ToolProvider() {
        @Override
        public String name() {
            return "workspace";
        }

        @Override
        public Toolbox open(ToolRequest request) {
            List<Tool> tools = request.sandbox() == null ? withoutCommands() : all(request.sandbox());
            return () -> tools;
        }
    };

    private BuiltinTools() {}

    /**
     * {@return the built-in tools in {@link ToolNames#BUILTIN} order}
     *
     * @param sandbox runs execute_command's commands; whether it isolates is stated in that tool's description
     */
    public static List<Tool> all(Sandbox sandbox) {
        Objects.requireNonNull(sandbox, "sandbox");
        return List.of(
                new ReadFileTool(),
                new WriteFileTool(),
                new EditFileTool(),
                new ReplaceTextTool(),
                new SearchFilesTool(),
                new ListFilesTool(),
                new ExecuteCommandTool(sandbox),
                new FinalAnswerTool());
    }

    /**
     * {@return the built-in tools without execute_command, for a run with no sandbox to confine commands in and no
     * permission to run them on the host}
     */
    public static List<Tool> withoutCommands() {
        return List.of(
                new ReadFileTool(),
                new WriteFileTool(),
                new EditFileTool(),
                new ReplaceTextTool(),
                new SearchFilesTool(),
                new ListFilesTool(),
                new FinalAnswerTool());
    }

    /** {@return how the given tools are described to a model, in the same order} */
    public static List<ToolSpec> specs(List<Tool> tools) {
        return tools.stream()
                .map(tool -> new ToolSpec(tool.name(), tool.description(), tool.parameters()))
                .toList();
    }
}
