package dev.assay.cli;

import dev.assay.run.RunSettings;
import dev.assay.subject.ToolMode;
import dev.assay.tools.McpServerConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The options of {@code assay run} that set Assay's agent loop around a model: the tools it offers ({@code --tools},
 * {@code --mcp-stdio}, {@code --mcp-url}), how it offers them ({@code --tool-mode}), and how far it goes
 * ({@code --max-steps}, {@code --max-tokens}, {@code --stream}).
 */
final class RunLoopOptions {
    @Option(
            names = "--tools",
            split = ",",
            paramLabel = "<tool>",
            description = "Offer only these tools to the model (final_answer is always offered); cases needing "
                    + "another tool are skipped.")
    List<String> allowedTools = new ArrayList<>();

    @Option(
            names = "--mcp-stdio",
            paramLabel = "<name=command args>",
            description = "An MCP server started as a child process, e.g. files=\"npx -y @modelcontextprotocol/"
                    + "server-filesystem /tmp\"; its tools are offered as name@tool. Repeatable.")
    Map<String, String> mcpStdio = new LinkedHashMap<>();

    @Option(
            names = "--mcp-url",
            paramLabel = "<name=url>",
            description = "An MCP server over streamable HTTP; its tools are offered as name@tool. Repeatable.")
    Map<String, String> mcpUrl = new LinkedHashMap<>();

    @Option(
            names = "--tool-mode",
            paramLabel = "<mode>",
            description = "native (function calling) or text (<tool_call> blocks) (default: native).")
    ToolMode toolMode;

    @Option(
            names = "--max-tokens",
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Output-token cap per model call.")
    Integer maxTokens;

    @Option(
            names = "--max-steps",
            paramLabel = "<n>",
            converter = OptionValues.AtLeastOne.class,
            description = "Model calls per case at most (default: 20).")
    Integer maxSteps;

    @Option(names = "--stream", description = "Use streaming responses.")
    boolean stream;

    /** Adds what these options say to the command line's settings: only the options given. */
    void addTo(RunSettings settings) {
        var mcpServers = new ArrayList<McpServerConfig>();
        mcpStdio.forEach((name, command) -> {
            List<String> words = List.of(command.strip().split("\\s+"));
            mcpServers.add(
                    new McpServerConfig.Stdio(name, words.getFirst(), words.subList(1, words.size()), List.of()));
        });
        mcpUrl.forEach((name, url) -> mcpServers.add(new McpServerConfig.Http(name, url, Map.of())));
        settings.stream(stream ? true : null)
                .toolMode(toolMode)
                .maxSteps(maxSteps)
                .maxTokens(maxTokens)
                .mcpServers(mcpServers.isEmpty() ? null : mcpServers)
                .allowedTools(allowedTools.isEmpty() ? null : allowedTools);
    }
}
