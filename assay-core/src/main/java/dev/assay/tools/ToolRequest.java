package dev.assay.tools;

import dev.assay.sandbox.Sandbox;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What a {@link ToolProvider} is given to open a run's tools.
 *
 * @param sandbox where commands run; null when there is none, so no tool that runs commands is offered
 * @param mcpServers the run's MCP servers; empty for none
 * @param mcpTimeout how long connecting to one MCP server may take, and each later call
 * @param env reads environment variables named in the configuration (front ends pass their environment)
 * @param log receives one line per server that cannot be used
 */
public record ToolRequest(
        Sandbox sandbox,
        List<McpServerConfig> mcpServers,
        Duration mcpTimeout,
        Function<String, String> env,
        Consumer<String> log) {
    public ToolRequest {
        mcpServers = List.copyOf(mcpServers);
        Objects.requireNonNull(mcpTimeout, "mcpTimeout");
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(log, "log");
    }
}
