package dev.assay.run;

import dev.assay.tools.McpServerConfig;
import dev.assay.tools.Tool;
import dev.assay.tools.ToolNames;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which tools a model driven by Assay's agent loop is offered, besides the built-in ones.
 *
 * @param mcpServers MCP servers whose tools are offered as {@code server@tool}; empty for none
 * @param mcpTimeout how long connecting to each server and listing its tools may take (default 20 s)
 * @param allowed when not empty, only these tools are offered (names or aliases, resolved to canonical names;
 *     {@code server@tool} for MCP tools); {@code final_answer} is always offered, as the loop's way to finish. Cases
 *     needing a tool left out are skipped with the reason
 * @param allowUnsandboxedCommands let execute_command run commands on this machine, unconfined, when bubblewrap is not
 *     usable (default false: the tool is then not offered, and cases needing it are skipped with
 *     {@code sandbox.unavailable})
 * @param containerEngine the container engine that runs the trials of cases naming an image ({@code --sandbox docker}
 *     or {@code podman}); empty for the first one registered
 */
public record ToolOptions(
        List<McpServerConfig> mcpServers,
        Duration mcpTimeout,
        List<String> allowed,
        boolean allowUnsandboxedCommands,
        String containerEngine) {
    public static final ToolOptions DEFAULTS = new ToolOptions(List.of(), null, List.of(), false);

    public ToolOptions {
        mcpServers = mcpServers == null ? List.of() : List.copyOf(mcpServers);
        mcpTimeout = mcpTimeout == null ? Duration.ofSeconds(20) : mcpTimeout;
        allowed = allowed == null ? List.of() : List.copyOf(allowed);
        containerEngine = containerEngine == null ? "" : containerEngine;
    }

    /** Tools whose cases that name an image run in the first container engine registered. */
    public ToolOptions(
            List<McpServerConfig> mcpServers,
            Duration mcpTimeout,
            List<String> allowed,
            boolean allowUnsandboxedCommands) {
        this(mcpServers, mcpTimeout, allowed, allowUnsandboxedCommands, "");
    }

    /** Tools with commands confined to a sandbox, or withheld where there is none. */
    public ToolOptions(List<McpServerConfig> mcpServers, Duration mcpTimeout, List<String> allowed) {
        this(mcpServers, mcpTimeout, allowed, false);
    }

    /**
     * {@return the allowed names that name none of the {@code known} tools (canonical names), in the order given}: a
     * misspelt name would otherwise leave its tool out without a word
     */
    public List<String> unknownAmong(Set<String> known) {
        return allowed.stream()
                .filter(name -> !known.contains(ToolNames.canonical(name)))
                .distinct()
                .toList();
    }

    /** {@return the tools that may be offered, in the order given} */
    public List<Tool> filter(List<Tool> tools) {
        if (allowed.isEmpty()) {
            return List.copyOf(tools);
        }
        Set<String> names = new HashSet<>();
        allowed.forEach(name -> names.add(ToolNames.canonical(name)));
        names.add(ToolNames.FINAL_ANSWER);
        return tools.stream().filter(tool -> names.contains(tool.name())).toList();
    }
}
